// store.memory: resident bytes per entry a store of the corpus (all five index kinds) holds,
// from the process's anonymous RSS before and after ingestion (heap trimmed before each
// reading; mapped segment pages are the documents' own bytes and are left out), split by index
// kind with StoreStats.indexMemory; against SQLite's own heap (sqlite3_memory_used).

import CSQLite
import Foundation  // String(format:)
import Stockpot

struct StoreMemoryWorkload: Workload {
    let name = "store.memory"
    let summary = "resident memory per entry after ingest, 5 index kinds vs SQLite's heap (B/entry)"

    static let targetBytesPerEntry = 300.0

    func run(in context: BenchContext) throws -> BenchResult {
        let documents = context.storeDocuments
        let count = Double(documents.count)
        let directory = try ScratchDirectory(label: "store-memory")
        defer { directory.remove() }
        let storePath = directory.file("store")

        // The documents are made before the first reading and the store is opened with the
        // soup registered, so only what grows with the entries is counted.
        let (before, loaded, kinds, keyDirectory) = try ingested(documents, at: storePath)
        // The store above is closed and released: what stays resident is heap the allocator
        // could not hand back. Then the same store opened from its snapshot.
        let closed = ResidentMemory.trimmedBytes()
        let (reopened, reopenedIndexes) = try Self.reopenedBytes(storePath)

        let (sqliteHeap, sqliteDisk) = try baseline(directory, documents)
        let total = Double(loaded - before) / count
        let indexTotal = Double(kinds.reduce(0) { $0 + $1.bytes }) / count
        let keyDirectoryTotal = Double(keyDirectory) / count
        let perKind = kinds.map { "\($0.kind) " + String(format: "%.0f", Double($0.bytes) / count) }.joined(separator: ", ")
        context.progress(
            String(
                format: "store.memory: anonymous RSS %.1f MB before, %.1f MB loaded, %.1f MB closed, %.1f MB reopened",
                Double(before) / 1e6, Double(loaded) / 1e6, Double(closed) / 1e6, Double(reopened) / 1e6))
        return BenchResult(
            workload: name, unit: .bytesPerEntry, stockpot: total, baseline: sqliteHeap / count,
            baselineName: "SQLite heap",
            note: StorageTarget.note("<= \(Int(Self.targetBytesPerEntry)) B/entry", met: total <= Self.targetBytesPerEntry)
                + String(format: "; indexes %.0f (", indexTotal) + perKind
                + String(
                    format:
                        "), key directory %.0f, rest %.0f; opened from its snapshot %.0f (indexes %.0f); SQLite on disk %.0f B/entry beyond the documents",
                    keyDirectoryTotal, total - indexTotal - keyDirectoryTotal, Double(reopened - before) / count,
                    Double(reopenedIndexes) / count, sqliteDisk / count))
    }

    /// Anonymous RSS before and after ingesting `documents` into a new store at `path`, the
    /// index bytes by kind and the key directory's bytes; the store is closed and released on
    /// return.
    private func ingested(
        _ documents: [[UInt8]], at path: String
    ) throws -> (before: Int, loaded: Int, kinds: [(kind: String, bytes: Int)], keyDirectory: Int) {
        let store = try StoreLoad.newStore(at: path, specs: StoreSoups.fiveKinds, durable: false)
        let before = ResidentMemory.trimmedBytes()
        try StoreLoad.ingest(documents, into: store)
        // `stats()` first: it waits for the last committed transactions, which the store
        // frees on a background queue a moment after the ingest returns (at most two), so the
        // reading is what stays resident, not garbage about to go.
        let stats = try store.stats()
        let kinds = try Self.indexBytesByKind(stats)
        let loaded = ResidentMemory.trimmedBytes()
        try StoreCheck.store(name, store, documents: documents, sample: StoreCheck.sample(documents.count))
        try store.close()
        return (before, loaded, kinds, stats.keyDirectoryBytes)
    }

    /// Anonymous RSS with the store at `path` open (from its snapshot) and its index bytes;
    /// closed and released on return.
    private static func reopenedBytes(_ path: String) throws -> (resident: Int, indexes: Int) {
        let store = try Store.open(directory: path)
        let bytes = ResidentMemory.trimmedBytes()
        let indexes = try indexBytesByKind(store.stats()).reduce(0) { $0 + $1.bytes }
        try store.close()
        return (bytes, indexes)
    }

    /// Index bytes by kind: the entry-id index, then each spec's ordered index under its type
    /// (a full_text spec's ordered index together with the full-text index).
    private static func indexBytesByKind(_ stats: StoreStats) throws -> [(kind: String, bytes: Int)] {
        guard let soup = stats.indexMemory.first(where: { $0.soup == StoreSoups.name }) else {
            throw BenchFailure("store.memory: stats have no soup \(StoreSoups.name)")
        }
        var kinds: [(kind: String, bytes: Int)] = [("ids", soup.entryIDIndexBytes), ("changes", soup.changeIndexBytes)]
        for spec in StoreSoups.fiveKinds {
            var bytes = soup.orderedIndexBytes[spec.path] ?? 0
            if spec.type == .fullText { bytes += soup.fullTextIndexBytes }
            kinds.append((spec.type.rawValue, bytes))
        }
        return kinds
    }

    /// SQLite's heap (`sqlite3_memory_used`) with the corpus loaded, and its file bytes beyond
    /// the documents' own bytes.
    private func baseline(_ directory: ScratchDirectory, _ documents: [[UInt8]]) throws -> (Double, Double) {
        let path = directory.file("smartstore.db")
        let database = try StoreLoad.newBaseline(
            at: path, codec: StockpotJSONCodec(), specs: StoreSoups.fiveKinds, synchronous: "OFF")
        try database.insert(json: documents)
        try StoreCheck.baseline(name, database, documents: documents, sample: StoreCheck.sample(documents.count))
        let heap = Double(sqlite3_memory_used())
        let documentBytes = documents.reduce(0) { $0 + $1.count }
        let disk = FileSize.of(path) + FileSize.of(path + "-wal")
        return (heap, Double(disk - documentBytes))
    }
}
