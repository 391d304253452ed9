// A minimal SQLite connection for the query differential tests: the oracle that runs the
// SmartStore-style SQL for the same query.

import CSQLite

/// A value bound to or read from SQLite.
enum OracleValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// Why SQLite refused a statement.
struct OracleError: Error {
    var message: String
}

/// An in-memory SQLite database; not thread-safe, one per test.
final class SQLiteOracle {
    private let handle: OpaquePointer

    init() {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        precondition(rc == SQLITE_OK && db != nil, "sqlite3_open_v2 failed")
        handle = db!
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs `sql` with `arguments`, returning every row; traps when SQLite rejects it.
    func rows(_ sql: String, _ arguments: [OracleValue] = []) -> [[OracleValue]] {
        switch query(sql, arguments) {
        case .success(let rows): return rows
        case .failure(let error): preconditionFailure("\(error.message): \(sql)")
        }
    }

    /// Runs `sql` with `arguments`: every row, or SQLite's error message (prepare or step).
    func query(_ sql: String, _ arguments: [OracleValue] = []) -> Result<[[OracleValue]], OracleError> {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            return .failure(OracleError(message: "prepare failed: " + String(cString: sqlite3_errmsg(handle))))
        }
        defer { sqlite3_finalize(statement) }
        for (position, argument) in arguments.enumerated() {
            let slot = Int32(position + 1)
            switch argument {
            case .null: sqlite3_bind_null(statement, slot)
            case .integer(let value): sqlite3_bind_int64(statement, slot, value)
            case .real(let value): sqlite3_bind_double(statement, slot, value)
            case .text(let value):
                sqlite3_bind_text(statement, slot, value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
        }
        var result: [[OracleValue]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else {
                return .failure(OracleError(message: "step failed: " + String(cString: sqlite3_errmsg(handle))))
            }
            var row: [OracleValue] = []
            for column in 0..<sqlite3_column_count(statement) {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(statement, column)))
                case SQLITE_FLOAT: row.append(.real(sqlite3_column_double(statement, column)))
                case SQLITE_TEXT: row.append(.text(String(cString: sqlite3_column_text(statement, column))))
                default: row.append(.null)
                }
            }
            result.append(row)
        }
        return .success(result)
    }

    /// Runs `sql` for its effect.
    func execute(_ sql: String, _ arguments: [OracleValue] = []) {
        _ = rows(sql, arguments)
    }
}
