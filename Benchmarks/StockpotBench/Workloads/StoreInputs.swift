// What the store workloads share: the two soups (three scalar indexes, five index kinds), the
// corpus as one UTF-8 array per document, batched ingestion into a Store and into the
// SmartStore-shaped SQLite baseline, and the checks that both hold what they were given.

import Stockpot

/// The index specs the store workloads register, on both sides.
enum StoreSoups {
    static let name = AccountSoup.name

    /// `store.ingest3`: one string, one integer and one floating path.
    static let threeScalar = [
        SoupIndexSpec(path: "Industry", type: .string),
        SoupIndexSpec(path: "NumberOfEmployees", type: .integer),
        SoupIndexSpec(path: "AnnualRevenue", type: .floating),
    ]

    /// `store.ingest5`, `store.get`, `store.open`, `store.memory` and the demo: one spec of
    /// each of the five index kinds.
    static let fiveKinds =
        threeScalar + [
            SoupIndexSpec(path: "Name", type: .fullText),
            SoupIndexSpec(path: "attributes.type", type: .json1),
        ]

    /// The same specs in Stockpot's type.
    static func stockpotSpecs(_ specs: [SoupIndexSpec]) -> [IndexSpec] {
        specs.map { IndexSpec(path: $0.path, type: $0.type) }
    }
}

/// Loading both sides, ``batchSize`` entries per transaction.
enum StoreLoad {
    /// Entries per Stockpot write and per SQLite transaction (the baseline's own batch size).
    static let batchSize = 1000

    /// Store options: the default durability (`.full`, an fsync per commit) when `durable`,
    /// else `.none`, for building stores whose loading is not what is timed.
    /// The key of every store the workloads open, under `--sqlite sqlcipher` (nil: plain).
    nonisolated(unsafe) static var encryption: StoreEncryption?

    static func options(durable: Bool) -> StoreOptions {
        var options = StoreOptions()
        if !durable { options.durability = .none }
        options.encryption = encryption
        return options
    }

    /// The options a read workload opens its loaded store with: the defaults, with the
    /// document cache of `--document-cache-bytes` when given, and durability `.none`, as the
    /// baseline's `synchronous=OFF`, for the untimed writes of the "after a write" variants.
    static func readOptions(_ context: BenchContext) -> StoreOptions {
        var options = StoreOptions()
        options.durability = .none
        options.encryption = encryption
        if let bytes = context.options.documentCacheBytes { options.documentCacheBytes = bytes }
        return options
    }

    /// Opens a new store in `path` and registers the Account soup with `specs`.
    static func newStore(
        at path: String, specs: [SoupIndexSpec], durable: Bool, encryption: StoreEncryption? = StoreLoad.encryption
    ) throws -> Store {
        var options = options(durable: durable)
        options.encryption = encryption
        let store = try Store.open(directory: path, options: options)
        try store.registerSoup(StoreSoups.name, indexSpecs: StoreSoups.stockpotSpecs(specs))
        return store
    }

    /// Upserts every document through the raw-bytes path, ``batchSize`` per call.
    static func ingest(_ documents: [[UInt8]], into store: Store) throws {
        var start = 0
        while start < documents.count {
            let end = min(start + batchSize, documents.count)
            try store.upsert(json: Array(documents[start..<end]), into: StoreSoups.name)
            start = end
        }
    }

    /// A new SmartStore-shaped database at `path` with the Account soup on `specs`.
    static func newBaseline<Codec: SoupCodec>(
        at path: String, codec: Codec, specs: [SoupIndexSpec], synchronous: String
    ) throws -> SmartStoreBaseline<Codec> {
        try SmartStoreBaseline(
            path: path, codec: codec, soupName: StoreSoups.name, indexSpecs: specs,
            configuration: .init(synchronous: synchronous, batchSize: batchSize))
    }
}

/// Checks that a side holds what it was given, so a fast but wrong side fails the workload.
enum StoreCheck {
    /// Throws unless the store has one entry per document and entries `sample` (1-based ids)
    /// carry their source document's `Id`.
    static func store(_ workload: String, _ store: Store, documents: [[UInt8]], sample: some Sequence<Int64>) throws {
        let count = try store.view().count(of: StoreSoups.name)
        guard count == documents.count else {
            throw BenchFailure("\(workload): Stockpot holds \(count) entries; \(documents.count) were written")
        }
        for id in sample {
            let stored = try store.retrieve(json: [id], from: StoreSoups.name)
            guard let bytes = stored.first, try accountId(bytes) == accountId(documents[Int(id) - 1]) else {
                throw BenchFailure("\(workload): Stockpot returned the wrong document for entry \(id)")
            }
        }
    }

    /// Throws unless the baseline has one row per document and rows `sample` carry their
    /// source document's `Id`.
    static func baseline<Codec: SoupCodec>(
        _ workload: String, _ baseline: SmartStoreBaseline<Codec>, documents: [[UInt8]], sample: some Sequence<Int64>
    ) throws {
        let count = try baseline.count()
        guard count == documents.count else {
            throw BenchFailure("\(workload): SQLite holds \(count) rows; \(documents.count) were written")
        }
        for id in sample {
            guard let bytes = try baseline.getJSON(id: id), try accountId(bytes) == accountId(documents[Int(id) - 1]) else {
                throw BenchFailure("\(workload): SQLite returned the wrong document for entry \(id)")
            }
        }
    }

    /// Every hundredth id of `count` entries (at most 100 ids).
    static func sample(_ count: Int) -> StrideTo<Int64> {
        stride(from: Int64(1), to: Int64(count) + 1, by: max(1, count / 100))
    }

    private static func accountId(_ bytes: [UInt8]) throws -> String? {
        try JSONReader.parse(bytes)["Id"]?.stringValue
    }
}

extension BenchContext {
    /// Each document as its own array: what `Store.upsert(json:)` and the baseline's
    /// `insert(json:)` take (the same arrays as the storage workloads' values).
    var storeDocuments: [[UInt8]] { storageValues }

    /// The SmartStore baseline's `PRAGMA synchronous`, as `--sqlite-sync` says (FULL).
    var baselineSynchronous: String { options.sqliteSynchronous }
}
