// The sqlite3 functions the wrapper calls, looked up by name: in the linked libsqlite3 (the
// default), or in SQLCipher loaded with dlopen(RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND), whose
// sqlite3_* symbols would otherwise clash with libsqlite3's (`--sqlite sqlcipher`).

import Glibc

/// One SQLite library's entry points. Immutable; the one in use is ``current``.
final class SQLiteLibrary: @unchecked Sendable {
    // @unchecked: set once at startup, before any connection opens; read-only afterwards.
    typealias Open = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?) -> Int32
    typealias Connection = @convention(c) (OpaquePointer?) -> Int32
    typealias ConnectionInt = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias Exec =
        @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafeRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
    typealias PrepareV3 =
        @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UInt32, UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutableRawPointer?) ->
        Int32
    typealias PrepareV2 =
        @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutableRawPointer?) -> Int32
    typealias BindInt64 = @convention(c) (OpaquePointer?, Int32, Int64) -> Int32
    typealias BindDouble = @convention(c) (OpaquePointer?, Int32, Double) -> Int32
    typealias BindBytes = @convention(c) (OpaquePointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32
    typealias ColumnInt32 = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias ColumnInt64 = @convention(c) (OpaquePointer?, Int32) -> Int64
    typealias ColumnDouble = @convention(c) (OpaquePointer?, Int32) -> Double
    typealias ColumnPointer = @convention(c) (OpaquePointer?, Int32) -> UnsafeRawPointer?
    typealias ErrorMessage = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    typealias ErrorString = @convention(c) (Int32) -> UnsafePointer<CChar>?
    typealias LastRowID = @convention(c) (OpaquePointer?) -> Int64
    typealias Key = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int32) -> Int32

    /// What the library is called in results: `SQLite 3.40.1` or `SQLCipher 3.4.1 (SQLite 3.15.2)`.
    let name: String
    /// Whether this is SQLCipher: connections are keyed right after they open.
    let isSQLCipher: Bool
    let open: Open
    let close: Connection
    let extendedResultCodes: ConnectionInt
    let exec: Exec
    /// sqlite3_prepare_v3 where the library has it (3.20 and later), else nil.
    let prepareV3: PrepareV3?
    let prepareV2: PrepareV2
    let finalize: Connection
    let bindNull: ConnectionInt
    let bindInt64: BindInt64
    let bindDouble: BindDouble
    let bindText: BindBytes
    let bindBlob: BindBytes
    let step: Connection
    let reset: Connection
    let clearBindings: Connection
    let columnCount: Connection
    let columnType: ColumnInt32
    let columnInt64: ColumnInt64
    let columnDouble: ColumnDouble
    let columnText: ColumnPointer
    let columnBlob: ColumnPointer
    let columnBytes: ColumnInt32
    let changes: Connection
    let lastInsertRowID: LastRowID
    let errorMessage: ErrorMessage
    let errorString: ErrorString
    /// sqlite3_key (SQLCipher only).
    let key: Key?
    /// Whether the library has FTS5: Debian's SQLCipher 3.4.1 (SQLite 3.15.2) is built
    /// without FTS5 and JSON1, so SmartStore's FTS table, json_extract and json1 indexes
    /// cannot be made with it.
    var hasFTS5: Bool { !isSQLCipher }

    private init(handle: UnsafeMutableRawPointer, name: String, isSQLCipher: Bool) throws {
        func look<T>(_ symbol: String) throws -> T {
            guard let address = dlsym(handle, symbol) else { throw BenchFailure("\(name) has no function \(symbol)") }
            return unsafeBitCast(address, to: T.self)
        }
        self.name = name
        self.isSQLCipher = isSQLCipher
        open = try look("sqlite3_open_v2")
        close = try look("sqlite3_close_v2")
        extendedResultCodes = try look("sqlite3_extended_result_codes")
        exec = try look("sqlite3_exec")
        prepareV3 = dlsym(handle, "sqlite3_prepare_v3").map { unsafeBitCast($0, to: PrepareV3.self) }
        prepareV2 = try look("sqlite3_prepare_v2")
        finalize = try look("sqlite3_finalize")
        bindNull = try look("sqlite3_bind_null")
        bindInt64 = try look("sqlite3_bind_int64")
        bindDouble = try look("sqlite3_bind_double")
        bindText = try look("sqlite3_bind_text")
        bindBlob = try look("sqlite3_bind_blob")
        step = try look("sqlite3_step")
        reset = try look("sqlite3_reset")
        clearBindings = try look("sqlite3_clear_bindings")
        columnCount = try look("sqlite3_column_count")
        columnType = try look("sqlite3_column_type")
        columnInt64 = try look("sqlite3_column_int64")
        columnDouble = try look("sqlite3_column_double")
        columnText = try look("sqlite3_column_text")
        columnBlob = try look("sqlite3_column_blob")
        columnBytes = try look("sqlite3_column_bytes")
        changes = try look("sqlite3_changes")
        lastInsertRowID = try look("sqlite3_last_insert_rowid")
        errorMessage = try look("sqlite3_errmsg")
        errorString = try look("sqlite3_errstr")
        key = isSQLCipher ? try look("sqlite3_key") as Key : nil
    }

    /// The linked libsqlite3, through the process's own symbol table.
    static let system: SQLiteLibrary = {
        guard let handle = dlopen(nil, RTLD_NOW), let library = try? SQLiteLibrary(handle: handle, name: "SQLite", isSQLCipher: false) else {
            fatalError("the linked libsqlite3 has no sqlite3_* functions")  // the binary links it: a build error
        }
        return library
    }()

    /// SQLCipher, loaded from Debian's libsqlcipher0 (`libsqlcipher-dev`, `Tools/deps.sh --bench`).
    static func sqlcipher() throws -> SQLiteLibrary {
        for file in ["libsqlcipher.so.0", "libsqlcipher.so"] {
            if let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND) {
                typealias Version = @convention(c) () -> UnsafePointer<CChar>?
                let version = dlsym(handle, "sqlite3_libversion").flatMap { unsafeBitCast($0, to: Version.self)() }.map { String(cString: $0) } ?? "?"
                return try SQLiteLibrary(handle: handle, name: "SQLCipher (SQLite \(version))", isSQLCipher: true)
            }
        }
        throw BenchFailure("cannot load libsqlcipher.so.0: install libsqlcipher-dev (Tools/deps.sh --bench does)")
    }

    /// The library new connections use: ``system`` unless `--sqlite sqlcipher` chose SQLCipher.
    nonisolated(unsafe) static var current = SQLiteLibrary.system

    /// The passphrase SQLCipher connections are keyed with, as SmartStore keys them: the
    /// base64 of a 256-bit key, stretched by PBKDF2 with `kdf_iter = 4000`.
    static let passphrase = "q2VnWtQ1y7o3JbXk5C0sF9aH4mZpR8uLd6eYcIw2TgA="
}
