// Why a full-text match expression could not be parsed: a matchable code, the UTF-8 offset in
// the expression where the problem was found, and what was expected there.

/// A malformed full-text match expression; the store reports it as `invalid_query`.
///
/// `offset` counts UTF-8 bytes from the start of the expression, from 0 (the expression's
/// length when the problem is at its end); `characterOffset(in:)` converts it. A value type.
package struct MatchExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. New codes may be added.
    package enum Code: String, Sendable, Hashable {
        /// Nothing to match: the expression is empty or only white space and stray operators
        /// characters (`*`, `+`, `^`).
        case emptyExpression
        /// `AND`, `OR` or `NOT` with no term, phrase or group before or after it.
        case missingOperand
        /// A `(` never closed, or a `)` never opened.
        case unbalancedParenthesis
        /// `()`: a group with nothing in it.
        case emptyGroup
        /// A `"` never closed.
        case unterminatedString
        /// A `{` with no `}` after it.
        case unterminatedColumnFilter
        /// `{soup:path}` not followed by `:`.
        case missingColon
        /// `{soup:path}:` with no term, phrase or group after it.
        case missingFilterTarget
        /// `{soup:path}` names no full_text path of the soup.
        case unknownColumn
        /// A `NEAR(...)` group without a phrase, with something other than phrases in it, or
        /// with a distance that is not a number of at most 9 digits.
        case invalidNear
        /// Groups nested more than `MatchParser.maximumDepth` deep (FTS5 stops before 100).
        case tooDeep
    }

    /// What went wrong.
    package var code: Code
    /// Where: a UTF-8 byte offset into the expression, from 0.
    package var offset: Int
    /// What was expected at `offset`, or what was found there, in words.
    package var expected: String

    /// Creates an error.
    package init(_ code: Code, offset: Int, expected: String) {
        self.code = code
        self.offset = offset
        self.expected = expected
    }

    /// One line: the problem and its offset.
    package var description: String {
        "Invalid match expression at offset \(offset): \(expected)."
    }

    /// `offset` as a count of Characters of `expression`, the text that was parsed (an offset
    /// inside a character counts the characters before it).
    package func characterOffset(in expression: String) -> Int {
        let utf8 = expression.utf8
        guard offset < utf8.count else { return expression.count }
        var index = utf8.index(utf8.startIndex, offsetBy: offset)
        while index.samePosition(in: expression) == nil, index > expression.startIndex {
            index = utf8.index(before: index)
        }
        return expression.distance(from: expression.startIndex, to: index)
    }
}
