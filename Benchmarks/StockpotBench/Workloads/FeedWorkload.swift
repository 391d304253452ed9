// feed.get-changes: reading the whole change feed of the query fixture's Accounts soup
// (docs/changes.md), a page of 1,000 changes at a time with each document handed out as its
// UTF-8 bytes, against SQLite handing out the same documents in the same order the cheapest
// way a SQLite-based store could (keyset pages by id, `id > ? ORDER BY id LIMIT 1000`).
// After the fixture's load every entry's last change follows its id, so both sides return
// the same documents in the same order; the self-check compares their counts and ids.
// Changes per second, best of three passes a side, sides alternating.

import Stockpot
import StockpotJSON
import StockpotTools

struct FeedWorkload: Workload {
    let name = "feed.get-changes"
    let summary = "the whole change feed in pages of 1,000, documents as bytes, vs SQLite keyset pages by id (changes/s)"

    static let pageSize = 1_000

    func run(in context: BenchContext) throws -> BenchResult {
        let fixture = try QueryFixture.load(in: context)
        defer { fixture.close() }
        let view = fixture.store.view()
        let table = fixture.baseline.tableName
        let statement = try fixture.baseline.database.prepare("SELECT id, soup FROM \(table) WHERE id > ? ORDER BY id LIMIT \(Self.pageSize)")

        func stockpotPass() throws -> [Int64] {
            var ids: [Int64] = []
            var since: UInt64 = 0
            var bytes = 0
            while true {
                let page = try view.changes(since: since, soups: [StoreSoups.name], limit: Self.pageSize)
                for change in page.changes {
                    if let document = change.document { bytes += JSONWriter.write(document).count }
                    ids.append(change.entryID ?? 0)
                }
                since = page.lastSequence
                guard page.hasMore else { break }
            }
            Sink.consume(UInt64(bytes))
            return ids
        }
        func sqlitePass() throws -> [Int64] {
            var ids: [Int64] = []
            var last: Int64 = 0
            var bytes = 0
            while true {
                statement.reset()
                try statement.bind(.integer(last), at: 1)
                var rows = 0
                while try statement.step() {
                    last = statement.column(0).integerValue ?? 0
                    bytes += statement.withColumnBytes(1) { Array($0) }.count
                    ids.append(last)
                    rows += 1
                }
                guard rows == Self.pageSize else { break }
            }
            statement.reset()
            Sink.consume(UInt64(bytes))
            return ids
        }
        let ours = try stockpotPass(), theirs = try sqlitePass()
        guard ours == theirs, ours.count == fixture.documentCount else {
            throw BenchFailure(
                "\(name): the feed lists \(ours.count) entries and SQLite \(theirs.count) (of \(fixture.documentCount)), or in another order")
        }
        var best = (stockpot: Double.infinity, sqlite: Double.infinity)
        for _ in 0..<3 {
            var start = MonotonicClock.nanoseconds()
            _ = try stockpotPass()
            best.stockpot = min(best.stockpot, Double(MonotonicClock.nanoseconds() - start))
            start = MonotonicClock.nanoseconds()
            _ = try sqlitePass()
            best.sqlite = min(best.sqlite, Double(MonotonicClock.nanoseconds() - start))
        }
        let count = Double(ours.count)
        return BenchResult(
            workload: name, unit: .operationsPerSecond, stockpot: count / (best.stockpot / 1e9), baseline: count / (best.sqlite / 1e9),
            baselineName: "SQLite keyset pages by id", note: "\(ours.count) changes a pass; target >= 100,000 changes/s")
    }
}
