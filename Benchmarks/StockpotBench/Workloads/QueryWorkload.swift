// A query.* workload: seeded query specs run on the loaded query fixture, `Store.query` /
// `Store.count` against the SQL SmartStore issues for the same spec (compiled before timing),
// the sides interleaved in blocks (BlockInterleaving), warm, after a write, or cold
// (QueryWorkload+Cold.swift). Median us per query; a sample is cross-checked first.

import Foundation  // String(format:)
import Stockpot

/// A named query workload; the specs come from `make` (see QueryWorkload+Catalog.swift).
struct QueryWorkload: Workload {
    let name: String
    let summary: String
    /// The ratio the median must reach; nil for a row shown for comparison only.
    var targetRatio: Double?
    /// Queries timed per side, at every corpus size, unless the warm-up shows they would take
    /// longer than the budget
    /// (see ``BlockInterleaving/timedCount(calls:secondsPerCall:minimum:)``).
    let calls: Int
    /// Mixed into the run's seed, so each workload draws its own keys.
    let salt: UInt64
    /// The ratio the median must reach against `--sqlite tuned`; nil for none.
    var tunedTargetRatio: Double? = nil
    /// Keys drawn Zipf-skewed (s = 0.99) instead of uniformly over the corpus.
    var skewed = false
    var mode = QueryMode.warm
    /// The calls, from seeded keys and the number of documents.
    let make: @Sendable (inout QueryKeys, _ calls: Int, _ documents: Int) throws -> [QueryCall]

    /// Queries cross-checked between the sides before timing.
    static let checkedCalls = 25
    /// Queries run on both sides, untimed, before the timed pass.
    static let warmUpCalls = 20
    /// Queries timed at least, however slow.
    static let minimumTimedCalls = 50

    func run(in context: BenchContext) throws -> BenchResult {
        var workload = self
        if context.options.sqliteSetup == .tuned { workload.targetRatio = tunedTargetRatio }
        return try workload.measure(in: context)
    }

    private func measure(in context: BenchContext) throws -> BenchResult {
        let fixture = try context.queryFixture()
        var keys = QueryKeys(documents: context.storeDocuments, seed: context.storageSeed(salt), skewed: skewed)
        let queries = try make(&keys, calls, fixture.documentCount)
        if mode == .cold { return try runCold(context, fixture: fixture, queries: queries) }
        let sides = try QuerySides(fixture: fixture, calls: queries, options: context.options)
        try sides.crossCheck(name, calls: Array(0..<queries.count).filter { $0 % max(1, queries.count / Self.checkedCalls) == 0 })

        var writer = mode == .afterWrite ? AfterWriteUpdates(fixture: fixture, seed: context.storageSeed(salt ^ 0xA5)) : nil
        var cacheBefore: StoreStats?
        let timings = try BlockInterleaving.warmUpAndTime(
            calls: queries.count, warmUps: Self.warmUpCalls, minimumTimed: Self.minimumTimedCalls,
            beforeTiming: { cacheBefore = try fixture.store.stats() },
            beforeCall: writer == nil ? nil : { side, _ in try writer!.update(side: side) },
            stockpot: sides.stockpot, baseline: sides.sqlite)
        Sink.consume(UInt64(timings.warmUpResults + timings.results))
        if mode == .afterWrite {
            try StoreCheck.store(name, fixture.store, documents: context.storeDocuments, sample: StoreCheck.sample(fixture.documentCount))
            try StoreCheck.baseline(name, fixture.baseline, documents: context.storeDocuments, sample: StoreCheck.sample(fixture.documentCount))
        }
        let cacheAfter = try fixture.store.stats()

        let (stockpot, sqlite) = (timings.stockpot, timings.baseline)
        let ours = Stopwatch.median(stockpot), theirs = Stopwatch.median(sqlite)
        let ratio = theirs / ours
        let meanRows = Double(timings.warmUpResults + timings.results) / Double(2 * (timings.timedCount + timings.warmUpCount))
        return BenchResult(
            workload: name, unit: .microsecondsPerOperation, stockpot: ours, baseline: theirs,
            baselineName: Self.baselineName(context),
            note: (targetRatio.map { StorageTarget.note(String(format: ">= %.0fx", $0), met: ratio >= $0) }
                ?? "no target: shown for comparison")
                + String(
                    format: "; %d queries, %d docs; p99 %.1f vs %.1f us", timings.timedCount, fixture.documentCount,
                    Stopwatch.percentile(stockpot, 0.99), Stopwatch.percentile(sqlite, 0.99))
                + String(format: "; mean %.1f rows or count", meanRows)
                + Self.cacheNote(before: cacheBefore ?? cacheAfter, after: cacheAfter)
                + BlockInterleaving.afterOtherNote(timings),
            target: targetRatio,
            extras: [
                ("stockpotP99", Stopwatch.percentile(stockpot, 0.99)), ("baselineP99", Stopwatch.percentile(sqlite, 0.99)),
                ("calls", Double(timings.timedCount)), ("meanRows", meanRows),
                ("documentCacheHitShare", Self.hitShare(before: cacheBefore ?? cacheAfter, after: cacheAfter)),
                ("stockpotMemoryBytes", Double(fixture.stockpotMemoryBytes)),
                ("sqliteMemoryBytes", Double(fixture.sqliteMemoryBytes)),
            ])
    }

    /// The baseline's name in the results: SmartStore's SQLite or the tuned connection.
    static func baselineName(_ context: BenchContext) -> String {
        (context.options.sqliteSetup == .tuned
            ? "SQLite tuned" : context.options.sqliteSetup == .sqlcipher ? "SmartStore SQLCipher" : "SmartStore SQLite")
            + (context.options.baselineJSON == .foundation ? ", Foundation" : "")
    }

    /// The share (0...1) of the timed pass's document reads that Stockpot's document cache
    /// answered; 0 when there were none.
    private static func hitShare(before: StoreStats, after: StoreStats) -> Double {
        let hits = after.documentCacheHits - before.documentCacheHits
        let reads = hits + after.documentCacheMisses - before.documentCacheMisses
        return reads > 0 ? Double(hits) / Double(reads) : 0
    }

    /// The share of the timed pass's document reads that Stockpot's document cache answered.
    private static func cacheNote(before: StoreStats, after: StoreStats) -> String {
        let hits = after.documentCacheHits - before.documentCacheHits
        let reads = hits + after.documentCacheMisses - before.documentCacheMisses
        guard reads > 0 else { return "; document cache off or unused" }
        return String(format: "; document cache %.0f%% of %d reads", 100 * Double(hits) / Double(reads), reads)
    }
}
