// store.open: `Store.open` of a store of the corpus that was closed cleanly (so it has an index
// snapshot), against SmartStore's open of the same entries in SQLite. Median ms; target at
// most 30 ms per 100,000 entries. Also the open with the snapshot files deleted (full replay).

import Foundation  // String(format:)
import Stockpot

struct StoreOpenWorkload: Workload {
    let name = "store.open"
    let summary = "Store.open with an index snapshot (and without) vs SmartStore SQLite open (ms)"

    static let targetMillisecondsPer100k = 30.0

    func run(in context: BenchContext) throws -> BenchResult {
        let documents = context.storeDocuments
        let directory = try ScratchDirectory(label: "store-open")
        defer { directory.remove() }
        let storePath = directory.file("store")
        let loader = try StoreLoad.newStore(at: storePath, specs: StoreSoups.fiveKinds, durable: false)
        try StoreLoad.ingest(documents, into: loader)
        try loader.close()
        let databasePath = directory.file("smartstore.db")
        do {
            let database = try StoreLoad.newBaseline(
                at: databasePath, codec: StockpotJSONCodec(), specs: StoreSoups.fiveKinds, synchronous: "OFF")
            try database.insert(json: documents)
        }
        let snapshotBytes = FileSize.total(in: storePath, withSuffix: ".snap")

        let withSnapshot = try Stopwatch.medianOfMeasured(runs: context.options.runs) {
            try timeOpen(storePath, expecting: documents.count, deletingSnapshots: false)
        }
        let withoutSnapshot = try Stopwatch.medianOfMeasured(runs: min(3, context.options.runs)) {
            try timeOpen(storePath, expecting: documents.count, deletingSnapshots: true)
        }
        let sqlite = try Stopwatch.medianOfMeasured(runs: context.options.runs) {
            try StorageLoad.seconds { try Self.openSmartStore(databasePath) }
        }
        let stockpot = withSnapshot * 1000
        let per100k = stockpot * 100_000 / Double(documents.count)
        let target = Self.targetMillisecondsPer100k
        return BenchResult(
            workload: name, unit: .milliseconds, stockpot: stockpot, baseline: sqlite * 1000,
            baselineName: "SmartStore SQLite open",
            note: StorageTarget.note("<= \(Int(target)) ms per 100k entries", met: per100k <= target)
                + String(
                    format: ": %.1f ms per 100k; snapshot %.1f MB; without it %.0f ms", per100k, Double(snapshotBytes) / 1e6, withoutSnapshot * 1000))
    }

    /// Seconds of one `Store.open` of `path`; closing and checking are outside the figure.
    /// With `deletingSnapshots`, the `.snap` files are removed first, so the open replays the
    /// whole log (and the close writes a snapshot again).
    private func timeOpen(_ path: String, expecting count: Int, deletingSnapshots: Bool) throws -> Double {
        if deletingSnapshots {
            let names = try FileManager.default.contentsOfDirectory(atPath: path)
            for name in names where name.hasSuffix(".snap") {
                try FileManager.default.removeItem(atPath: path + "/" + name)
            }
        }
        var opened: Store?
        let seconds = try StorageLoad.seconds { opened = try Store.open(directory: path) }
        guard let store = opened else { throw BenchFailure("store.open: no store") }
        let entries = try store.view().count(of: StoreSoups.name)
        try store.close()
        guard entries == count else {
            throw BenchFailure("store.open: the opened store has \(entries) entries; \(count) were written")
        }
        return seconds
    }

    /// What SmartStore does to open a store and make a soup ready: open the connection, set
    /// WAL and synchronous, look the soup's table up in soup_attrs and read its index map.
    private static func openSmartStore(_ path: String) throws {
        let database = try SQLiteDatabase(path: path)
        _ = try database.scalar("PRAGMA journal_mode=WAL")
        try database.execute("PRAGMA synchronous=FULL")
        let table = try database.scalar("SELECT id FROM soup_attrs WHERE soupName = ?", binds: [.text(StoreSoups.name)])
        let map = try database.query(
            "SELECT path, columnName, columnType FROM soup_index_map WHERE soupName = ?", binds: [.text(StoreSoups.name)])
        guard table.integerValue != nil, map.count == StoreSoups.fiveKinds.count else {
            throw BenchFailure("store.open: SQLite has no soup \(StoreSoups.name) with its index map")
        }
    }
}
