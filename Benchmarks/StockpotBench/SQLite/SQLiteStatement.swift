// A prepared statement: bind parameters, step through rows, read columns, reset for reuse.
// Finalized when the object goes away.

import CSQLite

/// A compiled SQL statement, reusable through ``reset()``. Use from one thread at a time.
final class SQLiteStatement {
    private let handle: OpaquePointer
    /// Keeps the connection open while the statement lives.
    private let database: SQLiteDatabase
    let sql: String

    /// Tells SQLite to copy bound text before `bind` returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(database: SQLiteDatabase, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(
            database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else {
            throw SQLiteError(code: status, connection: database.handle, sql: sql)
        }
        self.handle = statement
        self.database = database
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `value` to the parameter at 1-based `index`.
    func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let status: Int32
        switch value {
        case .null: status = sqlite3_bind_null(handle, index)
        case .integer(let integer): status = sqlite3_bind_int64(handle, index, integer)
        case .real(let real): status = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            var text = text
            status = text.withUTF8 { utf8 in
                sqlite3_bind_text(handle, index, utf8.baseAddress, Int32(utf8.count), Self.transient)
            }
        case .blob(let bytes):
            status = bytes.withUnsafeBytes { raw in
                sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(raw.count), Self.transient)
            }
        }
        try check(status)
    }

    /// Binds UTF-8 bytes as text to the parameter at 1-based `index` (SQLite copies them).
    func bindText(utf8 bytes: [UInt8], at index: Int32) throws(SQLiteError) {
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_bind_text(handle, index, chars.baseAddress, Int32(chars.count), Self.transient)
            }
        }
        try check(status)
    }

    /// Binds `bytes` as a blob to the parameter at 1-based `index` without copying them
    /// (`SQLITE_STATIC`): they must stay valid and unchanged until the statement has been
    /// stepped and reset, or the parameter rebound.
    func bindBlobWithoutCopy(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), nil))
    }

    /// Binds `values` to parameters 1, 2, ...
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Advances to the next row: `true` when a row is ready, `false` when the statement is done.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let status: throw SQLiteError(code: status, connection: database.handle, sql: sql)
        }
    }

    /// Makes the statement ready to run again and clears its bindings.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Column count of the current row.
    var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The value of 0-based column `index` in the current row.
    func column(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let pointer = sqlite3_column_text(handle, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let pointer = sqlite3_column_blob(handle, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default: return .null
        }
    }

    /// Calls `body` with the bytes of text or blob column `index`, valid only inside it.
    func withColumnBytes<R>(_ index: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let pointer = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Every column of the current row.
    func row() -> [SQLiteValue] {
        (0..<columnCount).map { column($0) }
    }

    private func check(_ status: Int32) throws(SQLiteError) {
        guard status == SQLITE_OK else {
            throw SQLiteError(code: status, connection: database.handle, sql: sql)
        }
    }
}
