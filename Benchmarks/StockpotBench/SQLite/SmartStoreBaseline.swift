// The SQLite baseline, shaped exactly like SmartStore's use of SQLite: WAL, metadata tables,
// TABLE_n with one column per index spec, expression indexes for json1, an FTS5 side table,
// prepared statements, one transaction per 1,000 entries. Schema in +Schema, writes in +Insert.

/// One SmartStore-style store with one soup, over one SQLite file, handling documents with
/// `Codec`. Single-threaded, like SmartStore's serialized store access.
final class SmartStoreBaseline<Codec: SoupCodec> {
    /// How the connection is tuned.
    struct Configuration {
        /// `PRAGMA synchronous`. SmartStore leaves SQLite's default, FULL, in WAL mode.
        var synchronous = "FULL"
        /// Entries per transaction in ``insert(documents:)``.
        var batchSize = 1000
    }

    let database: SQLiteDatabase
    let codec: Codec
    let soupName: String
    let indexSpecs: [SoupIndexSpec]
    let configuration: Configuration
    /// `TABLE_<id>`, from the soup's row in `soup_attrs`.
    private(set) var tableName = ""
    /// Each spec's column name, or its `json_extract` expression for json1 specs.
    private(set) var columnNames: [String] = []

    /// Statements reused across inserts, created by ``registerSoup()``.
    var nextIdStatement: SQLiteStatement?
    var insertStatement: SQLiteStatement?
    var insertFTSStatement: SQLiteStatement?
    var getStatement: SQLiteStatement?
    /// Statements of the update path, compiled on first use, by SQL text.
    private var compiledStatements: [String: SQLiteStatement] = [:]

    /// The compiled statement for `sql`, compiled once per connection.
    func cachedStatement(_ sql: String) throws -> SQLiteStatement {
        if let statement = compiledStatements[sql] { return statement }
        let statement = try database.prepare(sql)
        compiledStatements[sql] = statement
        return statement
    }

    /// Opens `path` the way SmartStore does and registers `soupName` with `indexSpecs`, or
    /// with `existing`, takes the soup an earlier run registered there with the same specs.
    init(
        path: String, codec: Codec, soupName: String, indexSpecs: [SoupIndexSpec],
        configuration: Configuration = Configuration(), existing: Bool = false
    ) throws {
        database = try SQLiteDatabase(path: path)
        self.codec = codec
        self.soupName = soupName
        self.indexSpecs = indexSpecs
        self.configuration = configuration
        let mode = try database.scalar("PRAGMA journal_mode=WAL")
        guard mode.textValue?.lowercased() == "wal" else {
            throw SQLiteError(code: 1, message: "journal_mode is \(mode), not WAL", sql: "PRAGMA journal_mode=WAL")
        }
        try database.execute("PRAGMA synchronous=\(configuration.synchronous)")
        try createMetaTables()
        let (table, columns) = existing ? try registeredSoup() : try registerSoup()
        tableName = table
        columnNames = columns
        try prepareStatements()
    }

    /// Indexes of the full_text specs, in spec order (the FTS table's columns).
    var fullTextSpecIndexes: [Int] {
        guard database.library.hasFTS5 else { return [] }  // no FTS table: match rows cannot run
        return indexSpecs.indices.filter { indexSpecs[$0].type == .fullText }
    }

    /// The document with soup entry id `id`, parsed, or `nil` when there is none.
    func get(id: Int64) throws -> Codec.Document? {
        guard let statement = getStatement else { return nil }
        statement.reset()
        try statement.bind(.integer(id), at: 1)
        guard try statement.step() else { return nil }
        let document = try statement.withColumnBytes(0) { bytes in try codec.parse(bytes) }
        statement.reset()
        return document
    }

    /// The `soup` column of entry `id` copied out as UTF-8 JSON bytes, unparsed, or `nil`.
    func getJSON(id: Int64) throws -> [UInt8]? {
        guard let statement = getStatement else { return nil }
        statement.reset()
        try statement.bind(.integer(id), at: 1)
        guard try statement.step() else { return nil }
        let bytes = statement.withColumnBytes(0) { Array($0) }
        statement.reset()
        return bytes
    }

    /// The rows `sql` returns with `binds` bound to its `?` parameters.
    func query(sql: String, binds: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        try database.query(sql, binds: binds)
    }

    /// Entries in the soup.
    func count() throws -> Int {
        Int(try database.scalar("SELECT count(*) FROM \(tableName)").integerValue ?? 0)
    }

    /// Rows in the soup's FTS table (0 when it has none).
    func fullTextCount() throws -> Int {
        guard !fullTextSpecIndexes.isEmpty else { return 0 }
        return Int(try database.scalar("SELECT count(*) FROM \(tableName)_fts").integerValue ?? 0)
    }
}
