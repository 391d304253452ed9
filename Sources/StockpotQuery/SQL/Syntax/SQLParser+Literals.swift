// Decoding token bytes into values: names, quoted names and strings (doubled quotes undone),
// decimal literals (too large for 64 bits is a real, as in SQLite), soup names and paths.

extension SQLParser {
    /// The token's bytes as written.
    func text(of token: SQLToken) -> String {
        String(decoding: bytes[token.start..<token.end], as: UTF8.self)
    }

    /// The content of a quoted token (`'...'`, `"..."`, `` `...` ``, `[...]`), a doubled
    /// closing quote read as one.
    func unquote(_ token: SQLToken) -> String {
        let quote = bytes[token.start]
        let inner = bytes[(token.start + 1)..<(token.end - 1)]
        guard quote != UInt8(ascii: "["), inner.contains(quote) else {
            return String(decoding: inner, as: UTF8.self)
        }
        var content: [UInt8] = []
        content.reserveCapacity(inner.count)
        var index = inner.startIndex
        while index < inner.endIndex {
            content.append(inner[index])
            index += inner[index] == quote ? 2 : 1
        }
        return String(decoding: content, as: UTF8.self)
    }

    /// A decimal integer literal: an integer when it fits in 64 bits, else a real. Records a
    /// literal equal to 2^63 so that `-` can fold it to Int64.min.
    mutating func decimalLiteral(_ token: SQLToken) -> SQLLiteral {
        var value: Int64 = 0
        var overflow = false
        for byte in bytes[token.start..<token.end] {
            let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAdding) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            if overflowed || overflowedAdding {
                overflow = true
                break
            }
            value = sum
        }
        guard overflow else { return .integer(value) }
        let digits = bytes[token.start..<token.end].drop { $0 == UInt8(ascii: "0") }
        if digits.elementsEqual("9223372036854775808".utf8) { int64MinMagnitudes.insert(token.start) }
        return .real(Double(text(of: token)) ?? .infinity)
    }

    /// The value of an ASCII hex digit.
    static func hexValue(_ byte: UInt8) -> UInt8 {
        byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : (byte | 0x20) - UInt8(ascii: "a") + 10
    }

    /// The soup name of a `{soup}` or `{soup:path}` token.
    func soupName(_ token: SQLToken) -> String {
        let end = token.kind == .soupPath ? token.colon : token.end - 1
        return String(decoding: bytes[(token.start + 1)..<end], as: UTF8.self)
    }

    /// The reference a `{soup:path}` token makes.
    func pathReference(_ token: SQLToken, qualifier: String?, position: Int) -> SQLPathReference {
        SQLPathReference(
            qualifier: qualifier, soup: soupName(token),
            path: String(decoding: bytes[(token.colon + 1)..<(token.end - 1)], as: UTF8.self),
            position: position)
    }
}
