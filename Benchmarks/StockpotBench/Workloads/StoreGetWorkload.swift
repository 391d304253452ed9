// store.get: point gets by entry id of seeded random ids, Stockpot's `retrieve(json:)` against
// the baseline's `SELECT soup FROM TABLE_1 WHERE id = ?`, both returning the stored JSON bytes.
// Median us per get (each timed), throughput, and both sides returning documents (Stockpot's
// read on demand, the baseline's parsed) whose Name is read.

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

    func run(in context: BenchContext) throws -> BenchResult {
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
        QuietDisk.settle()

        let stockpot = try measure(context, ids) { id in
            try store.retrieve(json: [id], from: StoreSoups.name).first?.count ?? 0
        }
        let parsedStockpot = try Stopwatch.medianOfMeasured(runs: context.options.runs) {
            try Self.medianMicroseconds(ids) { id in
                Int(try store.retrieve([id], from: StoreSoups.name).first.map(DocumentUse.readName.use) ?? 0)
            }
        }
        let sqlite = try baseline(context, directory, documents, ids)
        let medianRatio = sqlite.median / stockpot.median
        let throughputRatio = stockpot.throughput / sqlite.throughput
        let target = Self.targetRatio
        return BenchResult(
            workload: name, unit: .microsecondsPerOperation, stockpot: stockpot.median, baseline: sqlite.median,
            baselineName: "SmartStore SQLite",
            note: "target >= \(target)x: median " + (medianRatio >= target ? "met" : "not met")
                + String(format: ", throughput %.0f vs %.0f gets/s (%.2fx) ", stockpot.throughput, sqlite.throughput, throughputRatio)
                + (throughputRatio >= target ? "met" : "not met")
                + String(format: "; as documents, Name read, %.2f vs %.2f us (%.2fx)", parsedStockpot, sqlite.parsedMedian, sqlite.parsedMedian / parsedStockpot))
    }

    private struct Figures {
        /// Median microseconds per get.
        var median: Double
        /// Gets per second over all ids, untimed one by one.
        var throughput: Double
        /// Median microseconds per get that parses the document (baseline only).
        var parsedMedian = 0.0
    }

    /// The median get (each timed) and the throughput (all gets timed together) of `get`,
    /// which returns a byte count for the checksum.
    private func measure(_ context: BenchContext, _ ids: [Int64], _ get: (Int64) throws -> Int) throws -> Figures {
        let median = try Stopwatch.medianOfMeasured(runs: context.options.runs) {
            try Self.medianMicroseconds(ids, get)
        }
        let seconds = try Stopwatch.medianSeconds(runs: context.options.runs) {
            var checksum: UInt64 = 0
            for id in ids { checksum &+= UInt64(try get(id)) }
            Sink.consume(checksum)
        }
        return Figures(median: median, throughput: Double(ids.count) / seconds)
    }

    /// Times each get with the monotonic clock; the median in microseconds.
    private static func medianMicroseconds(_ ids: [Int64], _ get: (Int64) throws -> Int) throws -> Double {
        var durations = [Double]()
        durations.reserveCapacity(ids.count)
        var checksum: UInt64 = 0
        for id in ids {
            let start = MonotonicClock.nanoseconds()
            let count = try get(id)
            let end = MonotonicClock.nanoseconds()
            durations.append(Double(end &- start))
            checksum &+= UInt64(count)
        }
        Sink.consume(checksum)
        return Stopwatch.median(durations) / 1000
    }

    private func baseline(
        _ context: BenchContext, _ directory: ScratchDirectory, _ documents: [[UInt8]], _ ids: [Int64]
    ) throws -> Figures {
        switch context.options.baselineJSON {
        case .stockpot: try baseline(StockpotJSONCodec(), context, directory, documents, ids)
        case .foundation: try baseline(FoundationCodec(), context, directory, documents, ids)
        }
    }

    private func baseline<Codec: SoupCodec>(
        _ codec: Codec, _ context: BenchContext, _ directory: ScratchDirectory, _ documents: [[UInt8]], _ ids: [Int64]
    ) throws -> Figures {
        let database = try StoreLoad.newBaseline(
            at: directory.file("smartstore.db"), codec: codec, specs: StoreSoups.fiveKinds, synchronous: "OFF")
        try database.insert(json: documents)
        try StoreCheck.baseline(name, database, documents: documents, sample: ids.prefix(200))
        QuietDisk.settle()
        var figures = try measure(context, ids) { id in try database.getJSON(id: id)?.count ?? 0 }
        figures.parsedMedian = try Stopwatch.medianOfMeasured(runs: context.options.runs) {
            try Self.medianMicroseconds(ids) { id in
                guard let document = try database.get(id: id),
                    case .text(let name) = codec.indexValue(of: document, spec: Self.nameSpec)
                else { return 0 }
                return name.utf8.count
            }
        }
        return figures
    }
}
