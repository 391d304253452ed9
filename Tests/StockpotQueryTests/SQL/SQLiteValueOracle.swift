// The test oracle for Smart SQL values: a private in-memory SQLite with one row in
// t(a TEXT, b INTEGER, c REAL), evaluating `SELECT <expr> FROM t` with bound parameters and
// reporting the value with its storage class, or that SQLite raised an error.

import CSQLite
#if canImport(Glibc)
    import Glibc
#endif
@testable import StockpotQuery

/// What SQLite made of an expression: a value, or an error message.
enum OracleResult: Equatable, CustomStringConvertible {
    case value(SQLValue)
    case error(String)

    /// Same storage class and same value (reals by ==; text by bytes); any error equals any.
    func agrees(with other: OracleResult) -> Bool {
        switch (self, other) {
        case (.error, .error): return true
        case (.value(let a), .value(let b)):
            switch (a, b) {
            case (.null, .null): return true
            case (.integer(let x), .integer(let y)): return x == y
            case (.real(let x), .real(let y)): return x == y
            case (.text(let x), .text(let y)): return x.utf8Equals(y)
            default: return false
            }
        default: return false
        }
    }

    var description: String {
        switch self {
        case .value(let value): "\(value) (\(value.typeName))"
        case .error(let message): "error: \(message)"
        }
    }
}

/// An in-memory SQLite database; not thread-safe.
final class SQLiteValueOracle {
    let handle: OpaquePointer

    init() {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        precondition(rc == SQLITE_OK && db != nil, "sqlite3_open_v2 failed")
        handle = db!
        execute("CREATE TABLE t(a TEXT, b INTEGER, c REAL)")
        execute("INSERT INTO t VALUES (NULL, NULL, NULL)")
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) {
        precondition(sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK, "failed: \(sql)")
    }

    /// Sets the row's columns (text, integer, real, each possibly NULL).
    func setRow(_ values: [SQLValue]) {
        _ = run("UPDATE t SET a = ?, b = ?, c = ?", values)
    }

    /// The first column of the first row of `sql` with `parameters` bound in order.
    func evaluate(_ sql: String, _ parameters: [SQLValue]) -> OracleResult {
        run(sql, parameters)
    }

    /// Every row's first column (for aggregates over a table), or the error.
    private func run(_ sql: String, _ parameters: [SQLValue]) -> OracleResult {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            return .error(String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        for (index, value) in parameters.enumerated() {
            Self.bind(statement, Int32(index + 1), value)
        }
        let step = sqlite3_step(statement)
        if step == SQLITE_DONE { return .value(.null) }
        guard step == SQLITE_ROW else { return .error(String(cString: sqlite3_errmsg(handle))) }
        return .value(Self.column(statement, 0))
    }

    static func bind(_ statement: OpaquePointer?, _ slot: Int32, _ value: SQLValue) {
        switch value {
        case .null: sqlite3_bind_null(statement, slot)
        case .integer(let integer): sqlite3_bind_int64(statement, slot, integer)
        case .real(let real): sqlite3_bind_double(statement, slot, real)
        case .text(let text):
            let bytes = Array(text.utf8) + [0]
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    _ = sqlite3_bind_text(statement, slot, chars.baseAddress, Int32(bytes.count - 1), SQLITE_TRANSIENT)
                }
            }
        }
    }

    static func column(_ statement: OpaquePointer?, _ index: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let pointer = sqlite3_column_text(statement, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self))
        default: return .null
        }
    }
}
