// The two loaded stores every query.* and sql.* workload times: a Stockpot store and a
// SmartStore-shaped SQLite database holding the same corpus under the same entry ids, plus one
// contact per account in a second soup, built once per run (loading is not timed: durability
// .none and synchronous=OFF) and removed at exit, or kept for later runs (`--keep-fixture`).

import Foundation
import Stockpot

/// A Stockpot store and the SQLite baseline, both holding the corpus in the query soup.
final class QueryFixture {
    /// The query soup: three string paths (exact, like and ordering), an integer and a
    /// floating path (ranges), a full_text path (match), and `Id` (string), which the
    /// contacts soup's `AccountId` refers to (sql.join).
    static let specs = [
        SoupIndexSpec(path: "Name", type: .string),
        SoupIndexSpec(path: "Industry", type: .string),
        SoupIndexSpec(path: "BillingCity", type: .string),
        SoupIndexSpec(path: "NumberOfEmployees", type: .integer),
        SoupIndexSpec(path: "AnnualRevenue", type: .floating),
        SoupIndexSpec(path: "Description", type: .fullText),
        SoupIndexSpec(path: "Id", type: .string),
    ]

    /// Replaced by ``reopenStore(context:)``.
    private(set) var store: Store
    /// Replaced by ``reopenBaseline(context:)``.
    private(set) var baseline: SmartStoreBaseline<StockpotJSONCodec>
    /// The contacts soup in the same SQLite file (TABLE_2), registered and loaded through a
    /// second connection; queries joining both soups run on ``baseline``'s connection.
    let contactsBaseline: SmartStoreBaseline<StockpotJSONCodec>
    let sql: SmartStoreQuerySQL
    /// Smart SQL over both soups, translated as SmartStore does.
    let smartSQL: SmartStoreSmartSQL
    let documentCount: Int
    let directory: ScratchDirectory
    /// The memory Stockpot's indexes, key directory and document cache hold, and what the
    /// baseline's connection was given under `--sqlite tuned` (0 under smartstore).
    private(set) var stockpotMemoryBytes = 0
    private(set) var sqliteMemoryBytes = 0
    /// The files stay after the run (`--keep-fixture`).
    private let kept: Bool

    private init(
        store: Store, baseline: SmartStoreBaseline<StockpotJSONCodec>,
        contactsBaseline: SmartStoreBaseline<StockpotJSONCodec>, directory: ScratchDirectory, count: Int, kept: Bool
    ) {
        self.kept = kept
        self.store = store
        self.baseline = baseline
        self.contactsBaseline = contactsBaseline
        self.directory = directory
        sql = SmartStoreQuerySQL(baseline: baseline)
        smartSQL = SmartStoreSmartSQL(soups: [
            baseline.soupName: sql, contactsBaseline.soupName: SmartStoreQuerySQL(baseline: contactsBaseline),
        ])
        documentCount = count
    }

    /// Loads both sides: Stockpot through `upsert(json:)` in batches of 1,000 with durability
    /// `.none`, then closed (writing its index snapshot) and reopened with default options;
    /// SQLite through `insert(json:)`, 1,000 per transaction, `synchronous=OFF`. The contacts
    /// follow the accounts the same way on both sides. Both are checked (counts and a sample of
    /// documents) before any query is timed.
    /// With `--keep-fixture DIR` both sides live in DIR and a later run of the same corpus
    /// reopens them instead (checked the same way).
    static func load(in context: BenchContext) throws -> QueryFixture {
        try load(in: context, kept: context.options.keptFixture, removeAtClose: context.options.keptFixture == nil)
    }

    /// A private copy of the fixture in a scratch directory (removed at close), for workloads
    /// that delete entries: the kept fixture's files copied when there is one, else a fresh
    /// load.
    static func privateCopy(in context: BenchContext) throws -> QueryFixture {
        guard let kept = context.options.keptFixture else { return try load(in: context) }
        _ = try context.queryFixture()
        let scratch = try ScratchDirectory(label: "fixture-copy")
        for name in ["loaded", "store", "smartstore.db", "smartstore.db-wal", "smartstore.db-shm"]
        where FileManager.default.fileExists(atPath: kept + "/" + name) {
            try FileManager.default.copyItem(atPath: kept + "/" + name, toPath: scratch.file(name))
        }
        return try load(in: context, kept: scratch.path, removeAtClose: true)
    }

    /// Loads, or reopens from `kept`, the fixture; its files are removed at close when
    /// `removeAtClose`.
    private static func load(in context: BenchContext, kept: String?, removeAtClose: Bool) throws -> QueryFixture {
        let documents = context.storeDocuments
        let contacts = try ContactSoup.documents(accounts: documents, seed: context.storageSeed(60))
        let directory = try kept.map { try ScratchDirectory(kept: $0) } ?? ScratchDirectory(label: "query")
        let identity =
            "docs \(documents.count) seed \(context.options.seed)"
            + (context.options.sqliteSetup == .sqlcipher ? " sqlcipher" : "") + "\n"
        let marker = directory.file("loaded")
        let reused = kept != nil && (try? String(contentsOfFile: marker, encoding: .utf8)) == identity
        if kept != nil, !reused {
            for name in ["loaded", "store", "smartstore.db", "smartstore.db-wal", "smartstore.db-shm"] {
                try? FileManager.default.removeItem(atPath: directory.file(name))
            }
        }
        do {
            let storePath = directory.file("store")
            if reused {
                context.progress("query fixture: reusing the stores kept in \(directory.path)")
            } else {
                let seconds = try StorageLoad.seconds {
                    let loader = try StoreLoad.newStore(at: storePath, specs: specs, durable: false)
                    try StoreLoad.ingest(documents, into: loader)
                    try loader.registerSoup(ContactSoup.name, indexSpecs: StoreSoups.stockpotSpecs(ContactSoup.indexSpecs))
                    try ingest(contacts, into: loader)
                    try loader.close()
                }
                context.progress("query fixture: Stockpot loaded \(documents.count) entries and as many contacts in \(Int(seconds)) s")
            }
            let store = try Store.open(directory: storePath, options: StoreLoad.readOptions(context))
            let sample = StoreCheck.sample(documents.count)
            try StoreCheck.store("query fixture", store, documents: documents, sample: sample)
            let storedContacts = try store.view().count(of: ContactSoup.name)
            guard storedContacts == contacts.count else {
                throw BenchFailure("query fixture: Stockpot holds \(storedContacts) contacts; \(contacts.count) were written")
            }
            let path = directory.file("smartstore.db")
            let configuration = SmartStoreBaseline<StockpotJSONCodec>.Configuration(synchronous: "OFF", batchSize: StoreLoad.batchSize)
            var baseline: SmartStoreBaseline<StockpotJSONCodec>?
            var contactsBaseline: SmartStoreBaseline<StockpotJSONCodec>?
            let seconds = try StorageLoad.seconds {
                baseline = try SmartStoreBaseline(
                    path: path, codec: StockpotJSONCodec(), soupName: StoreSoups.name, indexSpecs: specs,
                    configuration: configuration, existing: reused)
                if !reused { try baseline!.insert(json: documents) }
                contactsBaseline = try SmartStoreBaseline(
                    path: path, codec: StockpotJSONCodec(), soupName: ContactSoup.name, indexSpecs: ContactSoup.indexSpecs,
                    configuration: configuration, existing: reused)
                if !reused { try contactsBaseline!.insert(json: contacts) }
            }
            if !reused {
                context.progress("query fixture: SQLite loaded \(documents.count) rows and as many contacts in \(Int(seconds)) s")
            }
            try StoreCheck.baseline("query fixture", baseline!, documents: documents, sample: sample)
            guard try contactsBaseline!.count() == contacts.count else {
                throw BenchFailure("query fixture: SQLite holds \(try contactsBaseline!.count()) contacts; \(contacts.count) were written")
            }
            if kept != nil, !reused { try identity.write(toFile: marker, atomically: true, encoding: .utf8) }
            QuietDisk.settle()
            directory.readIntoPageCache()
            let fixture = QueryFixture(
                store: store, baseline: baseline!, contactsBaseline: contactsBaseline!, directory: directory,
                count: documents.count, kept: !removeAtClose)
            try fixture.applySQLiteSetup(context)
            context.atFinish { fixture.close() }
            return fixture
        } catch {
            if removeAtClose { directory.remove() }
            throw error
        }
    }

    /// Upserts the contacts, ``StoreLoad/batchSize`` per call.
    private static func ingest(_ contacts: [[UInt8]], into store: Store) throws {
        var start = 0
        while start < contacts.count {
            let end = min(start + StoreLoad.batchSize, contacts.count)
            try store.upsert(json: Array(contacts[start..<end]), into: ContactSoup.name)
            start = end
        }
    }

    /// Closes the store and opens it again as a read workload does (the cold figures), or
    /// with another durability, or background compaction off. Returns the seconds the open took.
    func reopenStore(
        context: BenchContext, durability: StoreOptions.Durability = .none, backgroundCompaction: Bool = true
    ) throws -> Double {
        try store.close()
        var options = StoreLoad.readOptions(context)
        options.durability = durability
        options.backgroundCompaction = backgroundCompaction
        let start = MonotonicClock.nanoseconds()
        store = try Store.open(directory: directory.file("store"), options: options)
        return Double(MonotonicClock.nanoseconds() &- start) / 1e9
    }

    /// Opens a new connection to the SQLite file for the accounts soup, set up as
    /// `--sqlite` says (the cold figures). Returns the seconds the open took.
    func reopenBaseline(context: BenchContext) throws -> Double {
        let start = MonotonicClock.nanoseconds()
        baseline = try SmartStoreBaseline(
            path: directory.file("smartstore.db"), codec: StockpotJSONCodec(), soupName: StoreSoups.name,
            indexSpecs: Self.specs, configuration: .init(synchronous: "OFF", batchSize: StoreLoad.batchSize), existing: true)
        try applySQLiteSetup(context, reopening: true)
        return Double(MonotonicClock.nanoseconds() &- start) / 1e9
    }

    /// Under `--sqlite tuned`, gives the accounts connection a page cache and a memory map of
    /// at least the whole database file, which is more than Stockpot's indexes, key directory
    /// and document cache hold (both figures are kept for the report), and a NOCASE index on
    /// Name for LIKE; under smartstore, removes that index (a kept file may have it). On a
    /// reopen only the pragmas run (the index is there or not from the load).
    func applySQLiteSetup(_ context: BenchContext, reopening: Bool = false) throws {
        if !reopening {
            let stats = try store.stats()
            stockpotMemoryBytes =
                stats.keyDirectoryBytes + stats.documentCacheBytes
                + stats.indexMemory.reduce(0) { total, soup in
                    total + soup.entryIDIndexBytes + soup.changeIndexBytes + soup.fullTextIndexBytes + soup.orderedIndexBytes.values.reduce(0, +)
                }
        }
        let nameColumn = sql.column("Name")
        guard context.options.sqliteSetup == .tuned else {
            if !reopening { try baseline.database.execute("DROP INDEX IF EXISTS tuned_name_nocase") }
            sqliteMemoryBytes = 0
            return
        }
        if !reopening {
            // LIKE ignores ASCII case, so only an index in NOCASE order serves a prefix LIKE.
            try baseline.database.execute(
                "CREATE INDEX IF NOT EXISTS tuned_name_nocase ON \(sql.table) (\(nameColumn) COLLATE NOCASE)")
        }
        let fileBytes = FileSize.of(directory.file("smartstore.db"))
        let bytes = max(stockpotMemoryBytes, fileBytes) + (64 << 20)
        try baseline.database.execute("PRAGMA cache_size=-\(bytes / 1024)")
        try baseline.database.execute("PRAGMA mmap_size=\(bytes)")
        sqliteMemoryBytes = bytes
    }

    /// Closes the store and removes both sides' files, unless they are kept.
    func close() {
        try? store.close()
        if !kept { directory.remove() }
    }
}

extension BenchContext {
    /// The loaded query stores, built on first use and shared by every query workload.
    func queryFixture() throws -> QueryFixture {
        try cached("queryFixture") { try QueryFixture.load(in: self) }
    }
}
