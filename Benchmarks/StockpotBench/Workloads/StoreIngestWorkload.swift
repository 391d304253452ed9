// store.ingest3 and store.ingest5: the corpus upserted from raw bytes into a new store, 1,000
// per durable write, against the SmartStore-shaped SQLite baseline inserting the same bytes
// (parsed by its codec), 1,000 per transaction, synchronous=FULL in WAL. Entries/s.

import Foundation  // String(format:)
import Stockpot

struct StoreIngestWorkload: Workload {
    let name: String
    let summary: String
    /// The soup's index specs, on both sides.
    let specs: [SoupIndexSpec]
    /// Stockpot's entries/s must be at least this many times the baseline's.
    let targetRatio: Double

    /// Three scalar indexes (string, integer, floating); target 4x.
    static let threeScalar = StoreIngestWorkload(
        name: "store.ingest3", summary: "ingest, 3 scalar indexes, 1,000 per durable commit vs SmartStore SQLite (entries/s)",
        specs: StoreSoups.threeScalar, targetRatio: 4)
    /// One index of each of the five kinds; target 5x.
    static let fiveKinds = StoreIngestWorkload(
        name: "store.ingest5", summary: "ingest, all 5 index kinds, 1,000 per durable commit vs SmartStore SQLite (entries/s)",
        specs: StoreSoups.fiveKinds, targetRatio: 5)

    func run(in context: BenchContext) throws -> BenchResult {
        let documents = context.storeDocuments
        let sample = StoreCheck.sample(documents.count)
        var storeBytes = 0
        var cpu: [Double] = []

        // Each run ingests into a new store; opening it, registering the soup, and closing it
        // (its snapshot) are outside the figure.
        let stockpot = try Stopwatch.medianOfMeasured(runs: context.options.runs) {
            let directory = try ScratchDirectory(label: "ingest")
            defer { directory.remove() }
            let store = try StoreLoad.newStore(at: directory.file("store"), specs: specs, durable: true)
            let seconds = try ProcessCPUTime.measure { try StoreLoad.ingest(documents, into: store) }
            cpu.append(seconds.cpu)
            try StoreCheck.store(name, store, documents: documents, sample: sample)
            try store.close()
            storeBytes = FileSize.total(in: directory.file("store"), withSuffix: ".seg")
            return seconds.wall
        }
        let stockpotCPU = Stopwatch.median(cpu)
        let (sqlite, sqliteCPU, sqliteBytes, codecName) = try baseline(context, documents, sample)
        let ratio = sqlite / stockpot
        let count = Double(documents.count)
        return BenchResult(
            workload: name, unit: .entriesPerSecond, stockpot: count / stockpot, baseline: count / sqlite,
            baselineName: "SmartStore SQLite, \(codecName)",
            note: StorageTarget.note(String(format: ">= %.0fx", targetRatio), met: ratio >= targetRatio)
                + String(format: "; CPU %.2f s vs %.2f s (%.2fx); wall %.2f s vs %.2f s", stockpotCPU, sqliteCPU, sqliteCPU / stockpotCPU, stockpot, sqlite)
                + String(format: "; durable, 1,000/commit; on disk %.0f MB vs SQLite %.0f MB", Double(storeBytes) / 1e6, Double(sqliteBytes) / 1e6))
    }

    /// The baseline's median wall and CPU seconds, its bytes on disk and its codec's name.
    private func baseline(
        _ context: BenchContext, _ documents: [[UInt8]], _ sample: StrideTo<Int64>
    ) throws -> (Double, Double, Int, String) {
        switch context.options.baselineJSON {
        case .stockpot: try baseline(StockpotJSONCodec(), context, documents, sample)
        case .foundation: try baseline(FoundationCodec(), context, documents, sample)
        }
    }

    private func baseline<Codec: SoupCodec>(
        _ codec: Codec, _ context: BenchContext, _ documents: [[UInt8]], _ sample: StrideTo<Int64>
    ) throws -> (Double, Double, Int, String) {
        var bytes = 0
        var cpu: [Double] = []
        let seconds = try Stopwatch.medianOfMeasured(runs: context.options.runs) {
            let directory = try ScratchDirectory(label: "ingest-sqlite")
            defer { directory.remove() }
            let database = try StoreLoad.newBaseline(
                at: directory.file("smartstore.db"), codec: codec, specs: specs, synchronous: context.baselineSynchronous)
            let seconds = try ProcessCPUTime.measure { try database.insert(json: documents) }
            cpu.append(seconds.cpu)
            try StoreCheck.baseline(name, database, documents: documents, sample: sample)
            bytes = directory.totalFileBytes()
            return seconds.wall
        }
        return (seconds, Stopwatch.median(cpu), bytes, codec.name)
    }
}
