// store.update and store.update-external: existing accounts updated in batches of 1,000, one
// durable commit a batch, on a private copy of the query fixture: by `_soupEntryId`, or by
// external id (`externalIdPath: "Id"`, the indexed Salesforce id, as a sync down upserts),
// against SmartStore's batch upsert on SQLite (the entry found through the same index, then
// its update path), synchronous=FULL. Each account is updated once (a uniform draw without
// repeats) with a `LastSync` member added. Entries/s; the sides take turns batch by batch.

import Foundation  // String(format:)
import Stockpot
import StockpotTools

struct StoreUpdateWorkload: Workload {
    let name: String
    let summary: String
    /// By external id (`Id`) rather than by `_soupEntryId`.
    let external: Bool

    static let all = [
        StoreUpdateWorkload(
            name: "store.update", summary: "existing accounts updated by _soupEntryId, 1,000 per durable commit vs SmartStore SQLite (entries/s)",
            external: false),
        StoreUpdateWorkload(
            name: "store.update-external",
            summary: "existing accounts upserted by external id (Id), 1,000 per durable commit vs SmartStore SQLite (entries/s)",
            external: true),
    ]

    /// Timed batches a side (one more, untimed, warms both up).
    static let batches = 20
    static let externalIdPath = "Id"

    func run(in context: BenchContext) throws -> BenchResult {
        let fixture = try QueryFixture.privateCopy(in: context)
        defer { fixture.close() }
        _ = try fixture.reopenStore(context: context, durability: .full)
        try fixture.baseline.database.execute("PRAGMA synchronous=FULL")
        let documents = context.storeDocuments
        var random = SeededRandom(seed: context.storageSeed(external ? 101 : 100))
        var order = Array(documents.indices)
        for index in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(index, random.below(index + 1)) }
        let batchSize = StoreLoad.batchSize
        let batchCount = min(Self.batches + 1, documents.count / batchSize)
        guard batchCount >= 2 else { throw BenchFailure("\(name): needs at least \(2 * batchSize) accounts") }
        // Batch b carries `LastSync: b` in each of its documents; both sides get the same bytes.
        let batches: [[[UInt8]]] = (0..<batchCount).map { batch in
            order[batch * batchSize..<(batch + 1) * batchSize].map { index in
                let prefix = external ? "{\"LastSync\":\(batch)," : "{\"_soupEntryId\":\(index + 1),\"LastSync\":\(batch),"
                return Array(prefix.utf8) + documents[index].dropFirst()
            }
        }
        let path = external ? Self.externalIdPath : nil
        var (cpu, baselineCPU) = (0.0, 0.0)
        let stockpot = { (batch: Int) throws -> Int in
            var count = 0
            let seconds = try ProcessCPUTime.measure {
                count = try fixture.store.upsert(json: batches[batch], into: StoreSoups.name, externalIdPath: path).count
            }
            if batch > 0 { cpu += seconds.cpu }
            return count
        }
        let baseline = { (batch: Int) throws -> Int in
            var count = 0
            let seconds = try ProcessCPUTime.measure {
                count = try fixture.baseline.upsert(json: batches[batch], externalIdPath: path).count
            }
            if batch > 0 { baselineCPU += seconds.cpu }
            return count
        }
        _ = try stockpot(0) + baseline(0)
        let timings = try BlockInterleaving.time(count: batchCount - 1, blockSize: 1) {
            try stockpot($0 + 1)
        } baseline: {
            try baseline($0 + 1)
        }
        Sink.consume(UInt64(timings.results))
        try check(fixture, documents: documents, order: order, batchCount: batchCount)

        let (ours, theirs) = (Stopwatch.median(timings.stockpot), Stopwatch.median(timings.baseline))
        return BenchResult(
            workload: name, unit: .entriesPerSecond, stockpot: Double(batchSize) / (ours / 1e6),
            baseline: Double(batchSize) / (theirs / 1e6), baselineName: "SmartStore SQLite upsert, synchronous=FULL",
            note: String(
                format: "median batch of %d: %.1f vs %.1f ms; CPU %.2f s vs %.2f s; %d batches a side, durable",
                batchSize, ours / 1000, theirs / 1000, cpu, baselineCPU, batchCount - 1),
            cpuRatio: baselineCPU / cpu,
            extras: [("stockpotCPUSeconds", cpu), ("baselineCPUSeconds", baselineCPU)])
    }

    /// Throws unless both sides still hold one entry per account and a sample of the updated
    /// entries carries its batch's `LastSync` and its own `Id` on both sides.
    private func check(_ fixture: QueryFixture, documents: [[UInt8]], order: [Int], batchCount: Int) throws {
        let ours = try fixture.store.view().count(of: StoreSoups.name), theirs = try fixture.baseline.count()
        guard ours == documents.count, theirs == documents.count else {
            throw BenchFailure("\(name): \(ours) and \(theirs) accounts after updates, not \(documents.count)")
        }
        for position in stride(from: 0, to: batchCount * StoreLoad.batchSize, by: 97) {
            let index = order[position], id = Int64(index + 1)
            let expected = try JSONReader.parse(documents[index])["Id"]?.stringValue
            for (side, bytes) in [
                ("Stockpot", try fixture.store.retrieve(json: [id], from: StoreSoups.name).first),
                ("SQLite", try fixture.baseline.getJSON(id: id)),
            ] {
                let stored = try bytes.map { try JSONReader.parse($0) }
                guard stored?["Id"]?.stringValue == expected,
                    stored?["LastSync"]?.integerValue == Int64(position / StoreLoad.batchSize)
                else {
                    throw BenchFailure("\(name): \(side) holds the wrong document for entry \(id) after its update")
                }
            }
        }
    }
}
