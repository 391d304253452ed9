// The two loaded stores every query.* workload times: a Stockpot store and a SmartStore-shaped
// SQLite database holding the same corpus under the same entry ids, built once per run
// (loading is not timed: durability .none and synchronous=OFF) and removed at exit.

import Stockpot

/// A Stockpot store and the SQLite baseline, both holding the corpus in the query soup.
final class QueryFixture {
    /// The query soup: three string paths (exact, like and ordering), an integer and a
    /// floating path (ranges), and a full_text path (match).
    static let specs = [
        SoupIndexSpec(path: "Name", type: .string),
        SoupIndexSpec(path: "Industry", type: .string),
        SoupIndexSpec(path: "BillingCity", type: .string),
        SoupIndexSpec(path: "NumberOfEmployees", type: .integer),
        SoupIndexSpec(path: "AnnualRevenue", type: .floating),
        SoupIndexSpec(path: "Description", type: .fullText),
    ]

    let store: Store
    let baseline: SmartStoreBaseline<StockpotJSONCodec>
    let sql: SmartStoreQuerySQL
    let documentCount: Int
    private let directory: ScratchDirectory

    private init(store: Store, baseline: SmartStoreBaseline<StockpotJSONCodec>, directory: ScratchDirectory, count: Int) {
        self.store = store
        self.baseline = baseline
        self.directory = directory
        sql = SmartStoreQuerySQL(baseline: baseline)
        documentCount = count
    }

    /// Loads both sides: Stockpot through `upsert(json:)` in batches of 1,000 with durability
    /// `.none`, then closed (writing its index snapshot) and reopened with default options;
    /// SQLite through `insert(json:)`, 1,000 per transaction, `synchronous=OFF`. Both are
    /// checked (count and a sample of documents) before any query is timed.
    static func load(in context: BenchContext) throws -> QueryFixture {
        let documents = context.storeDocuments
        let directory = try ScratchDirectory(label: "query")
        do {
            let storePath = directory.file("store")
            var seconds = try StorageLoad.seconds {
                let loader = try StoreLoad.newStore(at: storePath, specs: specs, durable: false)
                try StoreLoad.ingest(documents, into: loader)
                try loader.close()
            }
            context.progress("query fixture: Stockpot loaded \(documents.count) entries in \(Int(seconds)) s")
            let store = try Store.open(directory: storePath)
            let sample = StoreCheck.sample(documents.count)
            try StoreCheck.store("query fixture", store, documents: documents, sample: sample)
            var baseline: SmartStoreBaseline<StockpotJSONCodec>?
            seconds = try StorageLoad.seconds {
                baseline = try StoreLoad.newBaseline(
                    at: directory.file("smartstore.db"), codec: StockpotJSONCodec(), specs: specs, synchronous: "OFF")
                try baseline!.insert(json: documents)
            }
            context.progress("query fixture: SQLite loaded \(documents.count) rows in \(Int(seconds)) s")
            try StoreCheck.baseline("query fixture", baseline!, documents: documents, sample: sample)
            let fixture = QueryFixture(store: store, baseline: baseline!, directory: directory, count: documents.count)
            context.atFinish { fixture.close() }
            return fixture
        } catch {
            directory.remove()
            throw error
        }
    }

    /// Closes the store and removes both sides' files.
    func close() {
        try? store.close()
        directory.remove()
    }
}

extension BenchContext {
    /// The loaded query stores, built on first use and shared by every query workload.
    func queryFixture() throws -> QueryFixture {
        try cached("queryFixture") { try QueryFixture.load(in: self) }
    }
}
