// store.get: point gets by entry id of seeded random ids, Stockpot's `retrieve(json:)` against
// the baseline's `SELECT soup FROM TABLE_1 WHERE id = ?`, both returning the stored JSON bytes.
// Median us per get (each timed), throughput, and both sides returning documents (Stockpot's
// read on demand, the baseline's parsed) whose Name is read. The sides take turns in blocks of
// gets (BlockInterleaving), so that a drift in the machine's speed reaches both.

import Foundation  // String(format:)
import Stockpot
import StockpotTools

struct StoreGetWorkload: Workload {
    let name = "store.get"
    let summary = "point get by entry id of random ids, bytes out vs SmartStore SQLite (median us/op)"

    static let targetRatio = 3.5
    /// The field read from each document in the "as documents" figure.
    private static let nameSpec = SoupIndexSpec(path: "Name", type: .string)
    /// Gets per run.
    static let lookupCount = 100_000

    /// Gets per block when the sides take turns: long enough that each side runs after itself
    /// (20-30 ms of Stockpot's gets, 60-90 ms of SQLite's; blocks of 1,000 measured both sides'
    /// caches stirred by the other's, 2.75x-2.98x against 3.1x-3.2x), short enough that a
    /// drift in the machine's speed, over seconds, reaches both sides alike.
    static let blockSize = 10_000

    func run(in context: BenchContext) throws -> BenchResult {
        switch context.options.baselineJSON {
        case .stockpot: try run(in: context, codec: StockpotJSONCodec())
        case .foundation: try run(in: context, codec: FoundationCodec())
        }
    }

    private func run<Codec: SoupCodec>(in context: BenchContext, codec: Codec) throws -> BenchResult {
        let documents = context.storeDocuments
        var random = SeededRandom(seed: context.storageSeed(41))
        let ids = (0..<Self.lookupCount).map { _ in Int64(random.below(documents.count)) + 1 }

        // Both sides loaded without fsyncs (loading is not timed); the store is then closed
        // and reopened with the default options, as an application would find it.
        let directory = try ScratchDirectory(label: "store-get")
        defer { directory.remove() }
        let storePath = directory.file("store")
        let loader = try StoreLoad.newStore(at: storePath, specs: StoreSoups.fiveKinds, durable: false)
        try StoreLoad.ingest(documents, into: loader)
        try loader.close()
        let store = try Store.open(directory: storePath, options: StoreLoad.readOptions(context))
        defer { try? store.close() }
        try StoreCheck.store(name, store, documents: documents, sample: ids.prefix(200))
        let database = try StoreLoad.newBaseline(
            at: directory.file("smartstore.db"), codec: codec, specs: StoreSoups.fiveKinds, synchronous: "OFF")
        try database.insert(json: documents)
        try StoreCheck.baseline(name, database, documents: documents, sample: ids.prefix(200))
        QuietDisk.settle()

        let bytes = try measure(context, ids) { id in
            try store.retrieve(json: [id], from: StoreSoups.name).first?.count ?? 0
        } baseline: { id in
            try database.getJSON(id: id)?.count ?? 0
        }
        let parsed = try measure(context, ids) { id in
            Int(try store.retrieve([id], from: StoreSoups.name).first.map(DocumentUse.readName.use) ?? 0)
        } baseline: { id in
            guard let document = try database.get(id: id),
                case .text(let name) = codec.indexValue(of: document, spec: Self.nameSpec)
            else { return 0 }
            return name.utf8.count
        }
        let medianRatio = bytes.baseline.median / bytes.stockpot.median
        let throughputRatio = bytes.stockpot.throughput / bytes.baseline.throughput
        let target = Self.targetRatio
        return BenchResult(
            workload: name, unit: .microsecondsPerOperation, stockpot: bytes.stockpot.median, baseline: bytes.baseline.median,
            baselineName: "SmartStore SQLite",
            note: "target >= \(target)x: median " + (medianRatio >= target ? "met" : "not met")
                + String(format: ", throughput %.0f vs %.0f gets/s (%.2fx) ", bytes.stockpot.throughput, bytes.baseline.throughput, throughputRatio)
                + (throughputRatio >= target ? "met" : "not met")
                + String(format: "; as documents, Name read, %.2f vs %.2f us (%.2fx)", parsed.stockpot.median, parsed.baseline.median,
                         parsed.baseline.median / parsed.stockpot.median)
                + "; \(bytes.passes) passes of \(ids.count) gets a side, in turns by \(Self.blockSize)")
    }

    /// One side's figures.
    private struct Figures {
        /// Median microseconds per get.
        var median: Double
        /// Gets per second, from the sum of the timed gets.
        var throughput: Double
    }

    /// Both sides' figures for `get` over `ids`: an untimed pass of both, then up to
    /// `runs` passes in which the sides take turns by ``blockSize`` gets (each get timed),
    /// fewer when they would pass the budget; the medians of the passes' figures. `get`
    /// returns a byte count for the checksum.
    private func measure(
        _ context: BenchContext, _ ids: [Int64], stockpot: (Int64) throws -> Int, baseline: (Int64) throws -> Int
    ) throws -> (stockpot: Figures, baseline: Figures, passes: Int) {
        var checksum = 0
        let start = MonotonicClock.nanoseconds()
        for id in ids { checksum &+= try stockpot(id) &+ baseline(id) }
        let passSeconds = Double(MonotonicClock.nanoseconds() &- start) / 1e9
        let passes = max(1, min(context.options.runs, Int(2 * Stopwatch.budgetSeconds / max(passSeconds, 1e-9))))
        var (stockpotPasses, baselinePasses) = ([Figures](), [Figures]())
        for _ in 0..<passes {
            let timings = try BlockInterleaving.time(count: ids.count, blockSize: Self.blockSize) { call in
                try stockpot(ids[call])
            } baseline: { call in
                try baseline(ids[call])
            }
            checksum &+= timings.results
            stockpotPasses.append(Self.figures(timings.stockpot))
            baselinePasses.append(Self.figures(timings.baseline))
        }
        Sink.consume(UInt64(truncatingIfNeeded: checksum))
        func medians(_ passes: [Figures]) -> Figures {
            Figures(median: Stopwatch.median(passes.map(\.median)), throughput: Stopwatch.median(passes.map(\.throughput)))
        }
        return (medians(stockpotPasses), medians(baselinePasses), passes)
    }

    /// A pass's figures from its per-get microseconds.
    private static func figures(_ microseconds: [Double]) -> Figures {
        Figures(median: Stopwatch.median(microseconds), throughput: Double(microseconds.count) / (microseconds.reduce(0, +) / 1e6))
    }
}
