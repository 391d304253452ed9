// A thin wrapper over an sqlite3 connection: open, execute, prepare, query, through the
// library in use (SQLiteLibrary: libsqlite3, or SQLCipher keyed as SmartStore keys it).
// The connection closes when the object goes away. Not thread-safe: one thread at a time.

import CSQLite

/// One open SQLite connection. Use from one thread at a time.
final class SQLiteDatabase {
    /// The `sqlite3*` handle; valid until deinit.
    let handle: OpaquePointer
    /// The library the connection belongs to.
    let library: SQLiteLibrary

    /// Opens (creating if needed) the database file at `path` with `library`. A SQLCipher
    /// connection is keyed at once as SmartStore keys it: the passphrase
    /// (``SQLiteLibrary/passphrase``), then `PRAGMA kdf_iter = 4000`, with 4 KiB pages
    /// (`cipher_page_size`, SQLCipher 4's default, which SmartStore keeps).
    init(path: String, library: SQLiteLibrary = .current) throws(SQLiteError) {
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = library.open(path, &connection, flags, nil)
        guard status == SQLITE_OK, let connection else {
            let error = SQLiteError(code: status, connection: connection, library: library)
            _ = library.close(connection)
            throw error
        }
        _ = library.extendedResultCodes(connection, 1)
        handle = connection
        self.library = library
        if let key = library.key {
            let passphrase = Array(SQLiteLibrary.passphrase.utf8)
            let keyed = passphrase.withUnsafeBytes { key(connection, $0.baseAddress, Int32($0.count)) }
            guard keyed == SQLITE_OK else { throw SQLiteError(code: keyed, connection: connection, library: library, sql: "sqlite3_key") }
            try execute("PRAGMA kdf_iter = 4000")
            try execute("PRAGMA cipher_page_size = 4096")
        }
    }

    deinit {
        _ = library.close(handle)
    }

    /// Runs one or more statements that return no rows of interest.
    func execute(_ sql: String) throws(SQLiteError) {
        let status = library.exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else {
            throw SQLiteError(code: status, connection: handle, library: library, sql: sql)
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
    var changes: Int { Int(library.changes(handle)) }

    /// The rowid of the most recent successful insert on this connection.
    var lastInsertRowID: Int64 { library.lastInsertRowID(handle) }

    /// The SQLite library version, such as `3.40.1`.
    static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}
