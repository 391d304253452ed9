// Why a query could not be answered: the spec is malformed, or reading an entry failed. The
// store turns it into its public error.

/// A query failure.
package struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    package enum Code: String, Sendable, Hashable {
        /// The spec is malformed or asks for something this version cannot do.
        case invalidQuery = "invalid_query"
        /// A Smart SQL statement names a soup that does not exist.
        case soupNotFound = "soup_not_found"
        /// A Smart SQL statement does not parse.
        case smartSQLSyntax = "smart_sql_syntax"
        /// A Smart SQL statement is not a SELECT.
        case readOnlyStatement = "read_only_statement"
        /// A stored document could not be read or does not verify.
        case corruption
        /// The run went past its time or memory budget (``SQLBudget``).
        case resourceLimit = "resource_limit"
        /// The run's ``SQLCancellation`` was cancelled (its task was).
        case cancelled
        /// The file system failed while reading.
        case ioError = "io_error"
        /// A bug.
        case `internal`
    }

    /// What went wrong.
    package var code: Code
    /// One sentence naming the path, key or position involved.
    package var message: String

    /// Creates an error.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// An `invalid_query` error.
    package static func invalid(_ message: String) -> QueryError {
        QueryError(.invalidQuery, message)
    }

    package var description: String { "\(code.rawValue): \(message)" }
}
