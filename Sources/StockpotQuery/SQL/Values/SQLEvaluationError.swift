// Why evaluating a Smart SQL value failed: an unknown or unsupported function, a wrong
// argument count, an integer overflow SQLite reports as an error, a bad ESCAPE, a malformed
// JSON argument, a text result over the limit. The executor reports each one as
// `invalid_query`.

/// An evaluation failure, with SQLite's wording in `message`.
package struct SQLEvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    package enum Code: String, Sendable, Hashable {
        /// No function has the name.
        case unknownFunction = "unknown_function"
        /// SQLite has the function; Smart SQL does not offer it.
        case unsupportedFunction = "unsupported_function"
        /// A function's argument it cannot work with (a malformed JSON text or path, a
        /// modifier Smart SQL refuses).
        case invalidArgument = "invalid_argument"
        /// A text result longer than ``SQLTextLimit/maximumBytes``.
        case tooBig = "too_big"
        /// The function exists but not with this many arguments (or with `*` / DISTINCT).
        case wrongArgumentCount = "wrong_argument_count"
        /// `abs(-9223372036854775808)` or a `sum` that left the 64-bit range.
        case integerOverflow = "integer_overflow"
        /// An ESCAPE that is not a single character.
        case invalidEscape = "invalid_escape"
    }

    /// What went wrong.
    package var code: Code
    /// One sentence, SQLite's wording where SQLite has one.
    package var message: String

    /// Creates an error.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `integer overflow`, as SQLite says it.
    static var integerOverflow: SQLEvaluationError { SQLEvaluationError(.integerOverflow, "integer overflow") }

    package var description: String { message }
}

extension QueryError {
    /// The `invalid_query` error an evaluation failure becomes.
    package init(_ error: SQLEvaluationError) {
        self.init(.invalidQuery, error.message)
    }
}
