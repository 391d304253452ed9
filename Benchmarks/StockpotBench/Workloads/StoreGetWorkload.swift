// store.get: point gets by entry id on the loaded query fixture, Stockpot's `retrieve` against
// SmartStore's `SELECT soup FROM TABLE_1 WHERE id = ?`, both handing the caller the same thing:
// the stored JSON bytes (the headline), a fully read tree (`-tree`), or one field (`-field`:
// Stockpot's document read lazily for Name, SQLite's `json_extract(soup, '$.Name')`). Ids are
// uniform over the corpus, or Zipf-skewed (`-zipf`); `-cold` times the first get after both
// sides are reopened with their files out of the page cache. The sides take turns in blocks
// of gets (BlockInterleaving), each get timed.

import Foundation  // String(format:)
import Stockpot
import StockpotJSON
import StockpotTools

struct StoreGetWorkload: Workload {
    let name: String
    let summary: String
    var shape = RowShape.json
    var skewed = false
    var cold = false
    var targetRatio: Double? = nil
    var tunedTargetRatio: Double? = nil

    /// The store.get rows, in run order.
    static let all = [
        StoreGetWorkload(
            name: "store.get", summary: "point get by entry id of random ids, JSON bytes out on both sides (median us/op)",
            targetRatio: 4, tunedTargetRatio: 2),
        StoreGetWorkload(name: "store.get-zipf", summary: "store.get with ids Zipf-skewed (s = 0.99)", skewed: true),
        StoreGetWorkload(name: "store.get-tree", summary: "store.get, every value of the document read on both sides", shape: .tree),
        StoreGetWorkload(name: "store.get-field", summary: "store.get, Name read lazily vs SQLite's json_extract of Name", shape: .field),
        StoreGetWorkload(
            name: "store.get-cold", summary: "store.get, first get after both sides reopen with their files out of the page cache", cold: true),
    ]

    /// Gets per pass.
    static let lookupCount = 100_000
    /// Gets per block when the sides take turns: long enough that each side mostly runs
    /// after itself, short enough that a drift in the machine's speed reaches both.
    static let blockSize = 10_000

    func run(in context: BenchContext) throws -> BenchResult {
        let fixture = try context.queryFixture()
        let documents = context.storeDocuments
        var keys = QueryKeys(documents: documents, seed: context.storageSeed(41), skewed: skewed)
        let ids = (0..<Self.lookupCount).map { _ in Int64(keys.documentIndex()) + 1 }
        let target = context.options.sqliteSetup == .tuned ? tunedTargetRatio : targetRatio
        try StoreCheck.store(name, fixture.store, documents: documents, sample: ids.prefix(200))
        try StoreCheck.baseline(name, fixture.baseline, documents: documents, sample: ids.prefix(200))
        if cold { return try runCold(context, fixture: fixture, ids: ids, target: target) }

        let database = fixture.baseline.database
        let byID = try database.prepare("SELECT soup FROM \(fixture.sql.table) WHERE id = ?")
        // Compiled only for -field: SQLCipher's SQLite has no json_extract.
        let nameByID = shape == .field ? try database.prepare("SELECT json_extract(soup, '$.Name') FROM \(fixture.sql.table) WHERE id = ?") : nil
        let stockpot: (Int64) throws -> Int
        let baseline: (Int64) throws -> Int
        switch shape {
        case .json:
            stockpot = { id in try fixture.store.retrieve(json: [id], from: StoreSoups.name).first?.count ?? 0 }
            baseline = { id in try Self.step(byID, id) { $0.withColumnBytes(0) { [UInt8]($0) }.count } }
        case .tree:
            stockpot = { id in
                Int(try fixture.store.retrieve([id], from: StoreSoups.name).first.map(DocumentUse.walkTree.use) ?? 0)
            }
            baseline = { id in
                try Self.step(byID, id) { statement in
                    Int(DocumentUse.walkTree.use(try statement.withColumnBytes(0) { try JSONReader.parse($0) }))
                }
            }
        case .field:
            stockpot = { id in
                Int(try fixture.store.retrieve([id], from: StoreSoups.name).first.map(DocumentUse.readName.use) ?? 0)
            }
            baseline = { id in try Self.step(nameByID!, id) { $0.column(0).textValue?.utf8.count ?? 0 } }
        }
        // Both sides' documents carry their own system fields, so the check compares the
        // account each side hands back (its Id) and, for -field, the Name read.
        for id in ids.prefix(200) {
            let ours = try fixture.store.retrieve(json: [id], from: StoreSoups.name).first
                .flatMap { try JSONReader.parse($0)["Id"]?.stringValue }
            var theirs: String?
            _ = try Self.step(byID, id) { statement in
                theirs = try statement.withColumnBytes(0) { try JSONReader.parse($0)["Id"]?.stringValue }
                return 0
            }
            let sameField = shape != .field ? true : try stockpot(id) == baseline(id)
            guard let ours, ours == theirs, sameField else {
                throw BenchFailure("\(name): Stockpot and SQLite hand back different documents for entry \(id)")
            }
        }

        var checksum = 0
        for id in ids.prefix(Self.blockSize) { checksum &+= try stockpot(id) &+ baseline(id) }
        let timings = try BlockInterleaving.time(count: ids.count, blockSize: Self.blockSize) { call in
            try stockpot(ids[call])
        } baseline: { call in
            try baseline(ids[call])
        }
        Sink.consume(UInt64(truncatingIfNeeded: checksum &+ timings.results))
        let ours = Stopwatch.median(timings.stockpot), theirs = Stopwatch.median(timings.baseline)
        let throughput = { (samples: [Double]) in Double(samples.count) / (samples.reduce(0, +) / 1e6) }
        return BenchResult(
            workload: name, unit: .microsecondsPerOperation, stockpot: ours, baseline: theirs,
            baselineName: QueryWorkload.baselineName(context),
            note: (target.map { StorageTarget.note(String(format: ">= %.1fx", $0), met: theirs / ours >= $0) }
                ?? "no target: shown for comparison")
                + String(
                    format: "; %.0f vs %.0f gets/s; p99 %.2f vs %.2f us; %d gets a side, in turns by %d",
                    throughput(timings.stockpot), throughput(timings.baseline),
                    Stopwatch.percentile(timings.stockpot, 0.99), Stopwatch.percentile(timings.baseline, 0.99),
                    ids.count, Self.blockSize),
            target: target,
            extras: [
                ("stockpotP99", Stopwatch.percentile(timings.stockpot, 0.99)),
                ("baselineP99", Stopwatch.percentile(timings.baseline, 0.99)),
                ("stockpotGetsPerSecond", throughput(timings.stockpot)),
                ("baselineGetsPerSecond", throughput(timings.baseline)),
                ("stockpotMemoryBytes", Double(fixture.stockpotMemoryBytes)),
                ("sqliteMemoryBytes", Double(fixture.sqliteMemoryBytes)),
            ])
    }

    /// Binds `id` to `statement`, steps once, and reads the row with `body` (0 when none).
    private static func step(_ statement: SQLiteStatement, _ id: Int64, _ body: (SQLiteStatement) throws -> Int) throws -> Int {
        statement.reset()
        try statement.bind(.integer(id), at: 1)
        defer { statement.reset() }
        return try statement.step() ? body(statement) : 0
    }

    /// Open plus the first get after each side, in turn, is closed, dropped from the page
    /// cache and reopened (for SQLite the get compiles its statement); see
    /// QueryWorkload+Cold.swift for why the open is part of the figure.
    private func runCold(_ context: BenchContext, fixture: QueryFixture, ids: [Int64], target: Double?) throws -> BenchResult {
        var (ours, theirs, oursFirst, theirsFirst) = ([Double](), [Double](), [Double](), [Double]())
        var bytes = 0
        for sample in 0..<QueryWorkload.coldSamples {
            let id = ids[sample]
            for side in SideOrder.sides(turn: sample) {
                QuietDisk.settle()
                fixture.directory.evictFromPageCache()
                if side == 0 {
                    let open = try fixture.reopenStore(context: context)
                    let start = MonotonicClock.nanoseconds()
                    bytes += try fixture.store.retrieve(json: [id], from: StoreSoups.name).first?.count ?? 0
                    oursFirst.append(Double(MonotonicClock.nanoseconds() &- start) / 1000)
                    ours.append(open * 1e6 + oursFirst.last!)
                } else {
                    let open = try fixture.reopenBaseline(context: context)
                    let start = MonotonicClock.nanoseconds()
                    let statement = try fixture.baseline.database.prepare("SELECT soup FROM \(fixture.sql.table) WHERE id = ?")
                    bytes += try Self.step(statement, id) { $0.withColumnBytes(0) { [UInt8]($0) }.count }
                    theirsFirst.append(Double(MonotonicClock.nanoseconds() &- start) / 1000)
                    theirs.append(open * 1e6 + theirsFirst.last!)
                }
            }
        }
        Sink.consume(UInt64(bytes))
        fixture.directory.readIntoPageCache()
        let (stockpot, sqlite) = (Stopwatch.median(ours), Stopwatch.median(theirs))
        return BenchResult(
            workload: name, unit: .microsecondsPerOperation, stockpot: stockpot, baseline: sqlite,
            baselineName: QueryWorkload.baselineName(context),
            note: String(
                format: "open plus first get, %d samples a side; first get alone %.1f vs %.1f us",
                ours.count, Stopwatch.median(oursFirst), Stopwatch.median(theirsFirst)), target: target,
            extras: [
                ("stockpotFirstCallUs", Stopwatch.median(oursFirst)), ("baselineFirstCallUs", Stopwatch.median(theirsFirst)),
                ("samples", Double(ours.count)),
            ])
    }
}
