// store.upsert-durable and store.upsert-durable-normal: single-document updates of random
// existing accounts, each its own durable commit, on a private copy of the query fixture:
// Stockpot with durability .full (synced before the call returns) against SmartStore's update
// path in one transaction with `synchronous=FULL` (SmartStore's, SQLite's default in WAL) or
// `NORMAL` (which does not sync the WAL at commit). Median us per upsert, p99 kept; the sides
// take turns in blocks of 50.

import Foundation  // String(format:)
import Stockpot
import StockpotTools

struct StoreDurableUpsertWorkload: Workload {
    let name: String
    let summary: String
    /// SQLite's `PRAGMA synchronous`.
    let synchronous: String

    static let all = [
        StoreDurableUpsertWorkload(
            name: "store.upsert-durable", summary: "one-document durable update, Stockpot .full vs SQLite synchronous=FULL (median us/op)",
            synchronous: "FULL"),
        StoreDurableUpsertWorkload(
            name: "store.upsert-durable-normal", summary: "one-document durable update, Stockpot .full vs SQLite synchronous=NORMAL (median us/op)",
            synchronous: "NORMAL"),
    ]

    static let upserts = 1_000
    static let blockSize = 50

    func run(in context: BenchContext) throws -> BenchResult {
        let fixture = try QueryFixture.privateCopy(in: context)
        defer { fixture.close() }
        _ = try fixture.reopenStore(context: context, durability: .full)
        try fixture.baseline.database.execute("PRAGMA synchronous=\(synchronous)")
        let documents = context.storeDocuments
        var random = SeededRandom(seed: context.storageSeed(90))
        let ids = (0..<Self.upserts).map { _ in Int64(random.below(documents.count)) + 1 }
        func updateBytes(_ id: Int64) -> [UInt8] {
            Array("{\"_soupEntryId\":\(id),".utf8) + documents[Int(id) - 1].dropFirst()
        }
        let timings = try BlockInterleaving.time(count: ids.count, blockSize: Self.blockSize) { call in
            try fixture.store.upsert(json: [updateBytes(ids[call])], into: StoreSoups.name).count
        } baseline: { call in
            try fixture.baseline.update(id: ids[call], json: updateBytes(ids[call])) ? 1 : 0
        }
        Sink.consume(UInt64(timings.results))
        let ours = try fixture.store.view().count(of: StoreSoups.name), theirs = try fixture.baseline.count()
        guard ours == documents.count, theirs == documents.count else {
            throw BenchFailure("\(name): \(ours) and \(theirs) accounts after updates, not \(documents.count)")
        }
        let (p99Ours, p99Theirs) = (Stopwatch.percentile(timings.stockpot, 0.99), Stopwatch.percentile(timings.baseline, 0.99))
        return BenchResult(
            workload: name, unit: .microsecondsPerOperation, stockpot: Stopwatch.median(timings.stockpot),
            baseline: Stopwatch.median(timings.baseline), baselineName: "SmartStore SQLite, synchronous=\(synchronous)",
            note: String(format: "p99 %.0f vs %.0f us; %d updates a side", p99Ours, p99Theirs, ids.count),
            extras: [("stockpotP99", p99Ours), ("baselineP99", p99Theirs)])
    }
}
