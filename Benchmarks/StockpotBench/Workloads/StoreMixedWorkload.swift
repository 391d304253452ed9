// store.mixed: a mixed run on a private copy of the query fixture: 80% point gets (JSON bytes
// out), 15% upserts (an update of the entry, or an insert when it was deleted), 5% deletes, ids
// Zipf-skewed (s = 0.99), Stockpot's background compaction on. Both sides run the same
// operation sequence, in turns by blocks of 1,000, each operation timed; no sync on either
// side (durability .none, synchronous=OFF: the fixture's). The figure is each side's p99; p50
// and p99.9 are kept. `--mixed-seconds` sets how long the run lasts (default 60, the
// workload's definition, which the report keeps).

import Foundation  // String(format:)
import Stockpot
import StockpotTools

struct StoreMixedWorkload: Workload {
    let name = "store.mixed"
    let summary = "80% gets, 15% upserts, 5% deletes, Zipf ids, one thread, p99 latency (us/op)"

    /// One operation of the sequence.
    private enum Operation {
        case get(Int64)
        case update(Int64)
        case insert(Int)
        case delete(Int64)
    }

    static let blockSize = 1_000

    func run(in context: BenchContext) throws -> BenchResult {
        let fixture = try QueryFixture.privateCopy(in: context)
        defer { fixture.close() }
        let documents = context.storeDocuments
        let tuned = context.options.sqliteSetup == .tuned
        var keys = QueryKeys(documents: documents, seed: context.storageSeed(80), skewed: true)
        var random = SeededRandom(seed: context.storageSeed(81))

        // Per-id update bytes: the account's document with its entry id, as an update carries it.
        func updateBytes(_ id: Int64) -> [UInt8] {
            Array("{\"_soupEntryId\":\(id),".utf8) + documents[Int(id) - 1].dropFirst()
        }
        // A sequence longer than the budget allows; the timed rounds stop at the budget.
        let count = 1_000_000
        var deleted = Set<Int64>()
        var operations: [Operation] = []
        operations.reserveCapacity(count)
        for _ in 0..<count {
            let id = Int64(keys.documentIndex()) + 1
            let roll = random.below(100)
            if roll < 80 {
                operations.append(.get(id))
            } else if roll < 95 {
                operations.append(deleted.contains(id) ? .insert(Int(id) - 1) : .update(id))
            } else if deleted.insert(id).inserted {
                operations.append(.delete(id))
            } else {
                operations.append(.get(id))
            }
        }

        let stockpot = { (index: Int) throws -> Int in
            switch operations[index] {
            case .get(let id): return try fixture.store.retrieve(json: [id], from: StoreSoups.name).first?.count ?? 0
            case .update(let id): return try fixture.store.upsert(json: [updateBytes(id)], into: StoreSoups.name).count
            case .insert(let document): return try fixture.store.upsert(json: [documents[document]], into: StoreSoups.name).count
            case .delete(let id):
                try fixture.store.delete([id], from: StoreSoups.name)
                return 1
            }
        }
        let baseline = { (index: Int) throws -> Int in
            switch operations[index] {
            case .get(let id): return try fixture.baseline.getJSON(id: id)?.count ?? 0
            case .update(let id): return try fixture.baseline.update(id: id, json: updateBytes(id)) ? 1 : 0
            case .insert(let document): return try fixture.baseline.insert(json: [documents[document]]).count
            case .delete(let id):
                try fixture.baseline.delete(id: id)
                return 1
            }
        }
        // Rounds of two blocks (each side first in one of them) until the budget is spent.
        var timings = BlockTimings()
        var done = 0
        let deadline = MonotonicClock.nanoseconds() &+ UInt64(context.options.mixedSeconds * 1e9)
        while done < operations.count, MonotonicClock.nanoseconds() < deadline {
            let base = done
            let round = try BlockInterleaving.time(count: min(2 * Self.blockSize, operations.count - base), blockSize: Self.blockSize) {
                try stockpot(base + $0)
            } baseline: {
                try baseline(base + $0)
            }
            timings.stockpot += round.stockpot
            timings.baseline += round.baseline
            timings.results &+= round.results
            done += round.stockpot.count
        }
        // The operations not run leave both sides as they are: the states still match.
        deleted = Set(operations.prefix(done).compactMap { if case .delete(let id) = $0 { id } else { nil } })
        Sink.consume(UInt64(timings.results))
        let ours = try fixture.store.view().count(of: StoreSoups.name), theirs = try fixture.baseline.count()
        guard ours == theirs else { throw BenchFailure("\(name): Stockpot holds \(ours) accounts, SQLite \(theirs)") }

        let percentiles = { (samples: [Double]) in
            (Stopwatch.percentile(samples, 0.5), Stopwatch.percentile(samples, 0.99), Stopwatch.percentile(samples, 0.999))
        }
        let (ourP50, ourP99, ourP999) = percentiles(timings.stockpot)
        let (theirP50, theirP99, theirP999) = percentiles(timings.baseline)
        let seconds = (timings.stockpot.reduce(0, +) + timings.baseline.reduce(0, +)) / 1e6
        return BenchResult(
            workload: name, unit: .microsecondsPerOperation, stockpot: ourP99, baseline: theirP99,
            baselineName: QueryWorkload.baselineName(context),
            note: String(
                format: "p99; p50 %.1f vs %.1f us, p99.9 %.1f vs %.1f us; %d operations a side, %.0f s timed in all, %d deleted",
                ourP50, theirP50, ourP999, theirP999, done, seconds, deleted.count),
            target: tuned ? 2 : nil,
            extras: [
                ("stockpotP50", ourP50), ("baselineP50", theirP50), ("stockpotP999", ourP999), ("baselineP999", theirP999),
                ("operations", Double(done)), ("timedSeconds", seconds),
            ])
    }
}
