// A thin wrapper over an sqlite3 connection: open, execute, prepare, query.
// The connection closes when the object goes away. Not thread-safe: one thread at a time.

import CSQLite

/// One open SQLite connection. Use from one thread at a time.
final class SQLiteDatabase {
    /// The `sqlite3*` handle; valid until deinit.
    let handle: OpaquePointer

    /// Opens (creating if needed) the database file at `path`.
    init(path: String) throws(SQLiteError) {
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &connection, flags, nil)
        guard status == SQLITE_OK, let connection else {
            let error = SQLiteError(code: status, connection: connection)
            sqlite3_close_v2(connection)
            throw error
        }
        sqlite3_extended_result_codes(connection, 1)
        handle = connection
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows of interest.
    func execute(_ sql: String) throws(SQLiteError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else {
            throw SQLiteError(code: status, connection: handle, sql: sql)
        }
    }

    /// Compiles one statement.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    /// The rows `sql` returns with `binds` bound to its `?` parameters, in order.
    func query(_ sql: String, binds: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        try statement.bind(binds)
        var rows = [[SQLiteValue]]()
        while try statement.step() {
            rows.append(statement.row())
        }
        return rows
    }

    /// The first column of the first row of `sql`, or `.null` when it returns no rows.
    func scalar(_ sql: String, binds: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue {
        try query(sql, binds: binds).first?.first ?? .null
    }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE on this connection.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The rowid of the most recent successful insert on this connection.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The SQLite library version, such as `3.40.1`.
    static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}
