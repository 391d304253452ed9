// Why a Smart SQL statement was refused: it does not parse (`smart_sql_syntax`) or it is not a
// SELECT (`read_only_statement`), with the character position and what was expected.

/// A Smart SQL statement the parser refuses.
package struct SQLSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the statement was refused; the raw value is the protocol's error code.
    package enum Code: String, Sendable, Hashable {
        /// The statement does not parse, or uses something Smart SQL does not support.
        case syntax = "smart_sql_syntax"
        /// The statement is not a SELECT (or a SELECT is followed by another statement).
        case readOnlyStatement = "read_only_statement"
    }

    /// Why the statement was refused.
    package var code: Code
    /// The 0-based position of the offending token, counted in Unicode scalars.
    package var position: Int
    /// The offending token as written (shortened when long), or nil at the end of the statement.
    package var near: String?
    /// What the parser would have accepted there (for example `an expression`), or nil when the
    /// problem is not a missing piece (an unsupported feature, a malformed literal).
    package var expected: String?
    /// One sentence a person can act on.
    package var message: String

    package init(code: Code, position: Int, near: String?, expected: String?, message: String) {
        self.code = code
        self.position = position
        self.near = near
        self.expected = expected
        self.message = message
    }

    package var description: String { "\(code.rawValue): \(message)" }

    /// The longest token text quoted in a message.
    static let nearLimit = 40

    /// An error at the token `bytes[start..<end]`: the message is "Syntax error at character N
    /// near "TOKEN": " followed by `detail`, or "expected ..." when only `expected` is given.
    static func syntax(
        _ bytes: [UInt8], start: Int, end: Int, expected: String?, detail: String? = nil
    ) -> SQLSyntaxError {
        let position = scalarOffset(bytes, start)
        let near = start < bytes.count ? tokenText(bytes, start: start, end: end) : nil
        let place = near.map { "near \"\($0)\"" } ?? "at the end of the statement"
        let reason = detail ?? "expected \(expected ?? "something else")"
        return SQLSyntaxError(
            code: .syntax, position: position, near: near, expected: expected,
            message: "Syntax error at character \(position) \(place): \(reason).")
    }

    /// A `read_only_statement` error for the statement starting at the token `bytes[start..<end]`.
    static func readOnly(_ bytes: [UInt8], start: Int, end: Int) -> SQLSyntaxError {
        let position = scalarOffset(bytes, start)
        let word = tokenText(bytes, start: start, end: end)
        return SQLSyntaxError(
            code: .readOnlyStatement, position: position, near: word, expected: "SELECT",
            message: "Smart SQL runs only SELECT statements, but the statement at character \(position) "
                + "is \(word.uppercased()); use the store's write operations to change data.")
    }

    /// The number of Unicode scalars in `bytes[..<byteOffset]` (bytes are valid UTF-8).
    static func scalarOffset(_ bytes: [UInt8], _ byteOffset: Int) -> Int {
        var count = 0
        for index in 0..<min(byteOffset, bytes.count) where bytes[index] & 0xC0 != 0x80 { count += 1 }
        return count
    }

    /// The token text, cut after `nearLimit` scalars (with "...").
    static func tokenText(_ bytes: [UInt8], start: Int, end: Int) -> String {
        var cut = start
        var scalars = 0
        while cut < end && cut < bytes.count {
            if bytes[cut] & 0xC0 != 0x80 {
                if scalars == nearLimit { break }
                scalars += 1
            }
            cut += 1
        }
        let text = String(decoding: bytes[start..<cut], as: UTF8.self)
        return cut < end ? text + "..." : text
    }
}
