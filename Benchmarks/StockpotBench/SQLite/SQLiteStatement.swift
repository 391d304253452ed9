// A prepared statement: bind parameters, step through rows, read columns, reset for reuse.
// Finalized when the object goes away. Calls go through the connection's SQLiteLibrary.

import CSQLite

/// A compiled SQL statement, reusable through ``reset()``. Use from one thread at a time.
final class SQLiteStatement {
    private let handle: OpaquePointer
    /// Keeps the connection open while the statement lives.
    private let database: SQLiteDatabase
    let sql: String

    private let library: SQLiteLibrary

    /// Tells SQLite to copy bound text before `bind` returns (`SQLITE_TRANSIENT`).
    private static var transient: UnsafeRawPointer? { UnsafeRawPointer(bitPattern: -1) }

    init(database: SQLiteDatabase, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let library = database.library
        let status =
            library.prepareV3.map { $0(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) }
            ?? library.prepareV2(database.handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else {
            throw SQLiteError(code: status, connection: database.handle, library: library, sql: sql)
        }
        self.handle = statement
        self.database = database
        self.library = library
        self.sql = sql
    }

    deinit {
        _ = library.finalize(handle)
    }

    /// Binds `value` to the parameter at 1-based `index`.
    func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let status: Int32
        switch value {
        case .null: status = library.bindNull(handle, index)
        case .integer(let integer): status = library.bindInt64(handle, index, integer)
        case .real(let real): status = library.bindDouble(handle, index, real)
        case .text(let text):
            var text = text
            status = text.withUTF8 { utf8 in
                library.bindText(handle, index, utf8.baseAddress, Int32(utf8.count), Self.transient)
            }
        case .blob(let bytes):
            status = bytes.withUnsafeBytes { raw in
                library.bindBlob(handle, index, raw.baseAddress, Int32(raw.count), Self.transient)
            }
        }
        try check(status)
    }

    /// Binds UTF-8 bytes as text to the parameter at 1-based `index` (SQLite copies them).
    func bindText(utf8 bytes: [UInt8], at index: Int32) throws(SQLiteError) {
        let status = bytes.withUnsafeBytes { raw in
            library.bindText(handle, index, raw.baseAddress, Int32(raw.count), Self.transient)
        }
        try check(status)
    }

    /// Binds `bytes` as a blob to the parameter at 1-based `index` without copying them
    /// (`SQLITE_STATIC`): they must stay valid and unchanged until the statement has been
    /// stepped and reset, or the parameter rebound.
    func bindBlobWithoutCopy(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        try check(library.bindBlob(handle, index, bytes.baseAddress, Int32(bytes.count), nil))
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
        switch library.step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let status: throw SQLiteError(code: status, connection: database.handle, library: library, sql: sql)
        }
    }

    /// Makes the statement ready to run again and clears its bindings.
    func reset() {
        _ = library.reset(handle)
        _ = library.clearBindings(handle)
    }

    /// Column count of the current row.
    var columnCount: Int32 { library.columnCount(handle) }

    /// The value of 0-based column `index` in the current row.
    func column(_ index: Int32) -> SQLiteValue {
        switch library.columnType(handle, index) {
        case SQLITE_INTEGER: return .integer(library.columnInt64(handle, index))
        case SQLITE_FLOAT: return .real(library.columnDouble(handle, index))
        case SQLITE_TEXT:
            guard let pointer = library.columnText(handle, index) else { return .text("") }
            let count = Int(library.columnBytes(handle, index))
            return .text(String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let pointer = library.columnBlob(handle, index) else { return .blob([]) }
            let count = Int(library.columnBytes(handle, index))
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default: return .null
        }
    }

    /// Calls `body` with the bytes of text or blob column `index`, valid only inside it.
    func withColumnBytes<R>(_ index: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let pointer = library.columnBlob(handle, index)
        let count = Int(library.columnBytes(handle, index))
        return try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Every column of the current row.
    func row() -> [SQLiteValue] {
        (0..<columnCount).map { column($0) }
    }

    private func check(_ status: Int32) throws(SQLiteError) {
        guard status == SQLITE_OK else {
            throw SQLiteError(code: status, connection: database.handle, library: library, sql: sql)
        }
    }
}
