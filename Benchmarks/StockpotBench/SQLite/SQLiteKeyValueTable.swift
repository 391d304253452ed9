// The SQLite baseline of the storage workloads: one key-value table, `kv(k BLOB PRIMARY KEY,
// v BLOB)`, in WAL mode, written and read through prepared statements that bind the caller's
// bytes without copying them. The storage rows are described in docs/benchmark-workloads.md.

/// One SQLite database holding one key-value table. Use from one thread at a time.
final class SQLiteKeyValueTable {
    /// How the table is declared.
    enum Layout: String {
        /// `CREATE TABLE kv(k BLOB PRIMARY KEY, v BLOB) WITHOUT ROWID`: one b-tree keyed by `k`.
        case withoutRowID = "without-rowid"
        /// `CREATE TABLE kv(k BLOB PRIMARY KEY, v BLOB)`: a rowid table plus an index on `k`.
        case rowid

        /// The layout the workloads use: the faster of the two on this corpus.
        static let chosen = Layout.rowid

        var createSQL: String {
            switch self {
            case .withoutRowID: "CREATE TABLE IF NOT EXISTS kv(k BLOB PRIMARY KEY, v BLOB) WITHOUT ROWID"
            case .rowid: "CREATE TABLE IF NOT EXISTS kv(k BLOB PRIMARY KEY, v BLOB)"
            }
        }
    }

    let database: SQLiteDatabase
    let path: String
    private let putStatement: SQLiteStatement
    private let getStatement: SQLiteStatement

    /// Opens (creating if needed) the database at `path` in WAL mode with
    /// `PRAGMA synchronous=<synchronous>` and the table in `layout`.
    init(path: String, synchronous: String, layout: Layout = .chosen) throws(SQLiteError) {
        self.path = path
        database = try SQLiteDatabase(path: path)
        let mode = try database.scalar("PRAGMA journal_mode=WAL")
        guard mode.textValue?.lowercased() == "wal" else {
            throw SQLiteError(code: 1, message: "journal_mode is \(mode), not WAL", sql: "PRAGMA journal_mode=WAL")
        }
        try database.execute("PRAGMA synchronous=\(synchronous)")
        try database.execute(layout.createSQL)
        // INSERT OR REPLACE is a put: it inserts or overwrites, as StorageEngine.write does.
        putStatement = try database.prepare("INSERT OR REPLACE INTO kv(k, v) VALUES (?, ?)")
        getStatement = try database.prepare("SELECT v FROM kv WHERE k = ?")
    }

    /// Puts `values[i]` at `keys[i]` for every i, `batchSize` pairs per transaction.
    func put(keys: [[UInt8]], values: [[UInt8]], batchSize: Int = 1000) throws {
        precondition(keys.count == values.count, "one value per key")
        var start = 0
        while start < keys.count {
            let end = min(start + batchSize, keys.count)
            try database.execute("BEGIN")
            do {
                for index in start..<end {
                    try put(keys[index], values[index])
                }
                try database.execute("COMMIT")
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
            start = end
        }
    }

    /// Puts `value` at `key` (inside the caller's transaction, if any).
    func put(_ key: [UInt8], _ value: [UInt8]) throws {
        let statement = putStatement
        try key.withUnsafeBytes { keyBytes in
            try value.withUnsafeBytes { valueBytes in
                defer { statement.reset() }
                try statement.bindBlobWithoutCopy(keyBytes, at: 1)
                try statement.bindBlobWithoutCopy(valueBytes, at: 2)
                try statement.step()
            }
        }
    }

    /// The value at `key`, copied out, or `nil`.
    func value(for key: [UInt8]) throws -> [UInt8]? {
        let statement = getStatement
        return try key.withUnsafeBytes { keyBytes -> [UInt8]? in
            defer { statement.reset() }
            try statement.bindBlobWithoutCopy(keyBytes, at: 1)
            guard try statement.step() else { return nil }
            return statement.withColumnBytes(0) { Array($0) }
        }
    }

    /// Calls `body` with every key and value, copied out, in key order.
    func forEach(_ body: ([UInt8], [UInt8]) -> Void) throws(SQLiteError) {
        let statement = try database.prepare("SELECT k, v FROM kv")
        while try statement.step() {
            let key = statement.withColumnBytes(0) { Array($0) }
            let value = statement.withColumnBytes(1) { Array($0) }
            body(key, value)
        }
    }

    /// Rewrites the database compactly: `VACUUM`, then a truncating checkpoint so that the
    /// rewritten pages reach the database file and the WAL is emptied.
    func vacuum() throws(SQLiteError) {
        try database.execute("VACUUM")
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Bytes of the database file and its WAL.
    var bytesOnDisk: Int {
        FileSize.of(path) + FileSize.of(path + "-wal")
    }
}
