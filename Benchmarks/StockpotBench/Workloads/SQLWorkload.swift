// An sql.* workload: seeded Smart SQL calls on the loaded query fixture, Stockpot's
// `forEachSmartRow` against SQLite running the SmartStore translation (compiled before timing),
// the sides interleaved in blocks (BlockInterleaving), warm or with one entry updated before
// every call. Median us per call; a sample is cross-checked first.

import Foundation  // String(format:)

/// A named Smart SQL workload; the calls come from `make` (see SQLWorkload+Catalog.swift).
struct SQLWorkload: Workload {
    let name: String
    let summary: String
    /// The ratio the median must reach; nil for a row shown for comparison only.
    var targetRatio: Double?
    /// One entry updated (untimed, on the same side) before every call.
    var afterWrite = false
    /// Calls timed per side, at every corpus size, unless the warm-up shows they would take
    /// too long (see ``BlockInterleaving/timedCount(calls:secondsPerCall:minimum:)``).
    let calls: Int
    /// Mixed into the run's seed, so each workload draws its own keys.
    let salt: UInt64
    /// The statement orders its rows fully, so the cross-check compares them in order.
    let ordered: Bool
    /// The calls, from seeded keys and the number of documents.
    let make: @Sendable (inout QueryKeys, _ calls: Int, _ documents: Int) throws -> [SQLCall]

    /// Calls cross-checked between the sides before timing.
    static let checkedCalls = 10
    /// Calls run on both sides, untimed, before the timed pass (at most a quarter of them).
    static let warmUpCalls = 20
    /// Calls timed at least, however slow.
    static let minimumTimedCalls = 10

    func run(in context: BenchContext) throws -> BenchResult {
        let fixture = try context.queryFixture()
        var keys = QueryKeys(documents: context.storeDocuments, seed: context.storageSeed(salt))
        let queries = try make(&keys, calls, fixture.documentCount)
        let sides = try SQLSides(fixture: fixture, calls: queries)
        let checked = try sides.crossCheck(
            name, calls: Array(0..<queries.count).filter { $0 % max(1, queries.count / Self.checkedCalls) == 0 },
            ordered: ordered)

        var writer = afterWrite ? AfterWriteUpdates(fixture: fixture, seed: context.storageSeed(salt ^ 0xA5)) : nil
        let timings = try BlockInterleaving.warmUpAndTime(
            calls: queries.count, warmUps: min(Self.warmUpCalls, max(1, queries.count / 4)),
            minimumTimed: Self.minimumTimedCalls,
            beforeCall: writer == nil ? nil : { side, _ in try writer!.update(side: side) },
            stockpot: sides.stockpot, baseline: sides.sqlite)
        Sink.consume(UInt64(timings.warmUpResults + timings.results))

        let (stockpot, sqlite) = (timings.stockpot, timings.baseline)
        let ours = Stopwatch.median(stockpot), theirs = Stopwatch.median(sqlite)
        let ratio = theirs / ours
        let target = context.options.sqliteSetup == .tuned ? nil : targetRatio
        return BenchResult(
            workload: name, unit: .microsecondsPerOperation, stockpot: ours, baseline: theirs,
            baselineName: QueryWorkload.baselineName(context),
            note: (target.map { StorageTarget.note(String(format: ">= %.0fx", $0), met: ratio >= $0) }
                ?? "no target: shown for comparison")
                + String(
                    format: "; %d calls, %d docs; p99 %.1f vs %.1f us", timings.timedCount, fixture.documentCount,
                    Stopwatch.percentile(stockpot, 0.99), Stopwatch.percentile(sqlite, 0.99))
                + String(format: "; mean %.1f rows", Double(timings.results) / Double(2 * timings.timedCount))
                + Self.describe(checked)
                + BlockInterleaving.afterOtherNote(timings),
            target: target,
            extras: [
                ("stockpotP99", Stopwatch.percentile(stockpot, 0.99)), ("baselineP99", Stopwatch.percentile(sqlite, 0.99)),
                ("calls", Double(timings.timedCount)),
            ])
    }

    /// The mean count when every checked call returned one row starting with an integer
    /// (a `count(*)`), else nothing.
    private static func describe(_ checked: [[[SQLiteValue]]]) -> String {
        let counts = checked.compactMap { rows in rows.count == 1 ? rows[0].first?.integerValue : nil }
        guard !counts.isEmpty, counts.count == checked.count else { return "" }
        return String(format: ", mean count %.0f (checked calls)", Double(counts.reduce(0, +)) / Double(counts.count))
    }
}
