// The one error type of the SQLite wrapper: the result code, SQLite's own message, and the
// statement that failed.

/// A failed sqlite3 call.
struct SQLiteError: Error, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, ...).
    let code: Int32
    /// SQLite's message (`sqlite3_errmsg`), or the code's description.
    let message: String
    /// The SQL being prepared or run, when there was one.
    let sql: String?

    /// The error for `code`, reading the message from `connection` when there is one.
    init(code: Int32, connection: OpaquePointer?, library: SQLiteLibrary, sql: String? = nil) {
        self.code = code
        if let connection, let text = library.errorMessage(connection) {
            message = String(cString: text)
        } else if let text = library.errorString(code) {
            message = String(cString: text)
        } else {
            message = "error \(code)"
        }
        self.sql = sql
    }

    /// An error the wrapper itself detects, with its own message.
    init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " [\($0)]" } ?? "")
    }
}
