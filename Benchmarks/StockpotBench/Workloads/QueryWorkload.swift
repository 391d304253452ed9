// A query.* workload: seeded query specs run on the loaded query fixture, `Store.query` /
// `Store.count` against the SQL SmartStore issues for the same spec (compiled before timing),
// the sides interleaved in blocks (BlockInterleaving). Median us per query; a sample is
// cross-checked first.

import Foundation  // String(format:)
import Stockpot

/// One query: a spec and a page, or the spec's count.
struct QueryCall {
    var spec: QuerySpec
    var page = 0
    /// `countQuery` instead of a page.
    var counts = false
    /// Rows as raw UTF-8 JSON on both sides: Stockpot's `query(json:)`, SQLite's `soup`
    /// column bytes copied out (as SmartStore's `queryAsString` takes each row's string).
    var json = false
    /// What is done with each document row (not with raw rows or selected values).
    var documentUse = DocumentUse.readName
}

/// A named query workload; the specs come from `make` (see QueryWorkload+Catalog.swift).
struct QueryWorkload: Workload {
    let name: String
    let summary: String
    /// The ratio the issue asks for; nil for a variant that has none (shown for comparison).
    let targetRatio: Double?
    /// Queries timed per side, at every corpus size, unless the warm-up shows they would take
    /// longer than the budget
    /// (see ``BlockInterleaving/timedCount(calls:secondsPerCall:minimum:)``).
    let calls: Int
    /// Mixed into the run's seed, so each workload draws its own keys.
    let salt: UInt64
    /// The calls, from seeded keys and the number of documents.
    let make: @Sendable (inout QueryKeys, _ calls: Int, _ documents: Int) throws -> [QueryCall]

    /// Queries cross-checked between the sides before timing.
    static let checkedCalls = 25
    /// Queries run on both sides, untimed, before the timed pass.
    static let warmUpCalls = 20
    /// Queries timed at least, however slow.
    static let minimumTimedCalls = 50

    func run(in context: BenchContext) throws -> BenchResult {
        let fixture = try context.queryFixture()
        var keys = QueryKeys(documents: context.storeDocuments, seed: context.storageSeed(salt))
        let queries = try make(&keys, calls, fixture.documentCount)
        let sides = try QuerySides(fixture: fixture, calls: queries, parser: context.options.baselineJSON)
        try sides.crossCheck(name, calls: Array(0..<queries.count).filter { $0 % max(1, queries.count / Self.checkedCalls) == 0 })

        var cacheBefore: StoreStats?
        let timings = try BlockInterleaving.warmUpAndTime(
            calls: queries.count, warmUps: Self.warmUpCalls, minimumTimed: Self.minimumTimedCalls,
            beforeTiming: { cacheBefore = try fixture.store.stats() },
            stockpot: sides.stockpot, baseline: sides.sqlite)
        Sink.consume(UInt64(timings.warmUpResults + timings.results))
        let cacheAfter = try fixture.store.stats()

        let (stockpot, sqlite) = (timings.stockpot, timings.baseline)
        let ours = Stopwatch.median(stockpot), theirs = Stopwatch.median(sqlite)
        let ratio = theirs / ours
        return BenchResult(
            workload: name, unit: .microsecondsPerOperation, stockpot: ours, baseline: theirs,
            baselineName: "SmartStore SQLite, " + (context.options.baselineJSON == .foundation ? "Foundation" : "StockpotJSON"),
            note: (targetRatio.map { StorageTarget.note(String(format: ">= %.0fx", $0), met: ratio >= $0) }
                ?? "no target: a variant, for comparison")
                + String(format: "; %d queries, %d docs; p90 %.1f vs %.1f us", timings.timedCount, fixture.documentCount,
                    Stopwatch.percentile(stockpot, 0.9), Stopwatch.percentile(sqlite, 0.9))
                + String(format: "; mean %.1f rows or count",
                    Double(timings.warmUpResults + timings.results) / Double(2 * (timings.timedCount + timings.warmUpCount)))
                + Self.cacheNote(before: cacheBefore ?? cacheAfter, after: cacheAfter)
                + BlockInterleaving.afterOtherNote(timings))
    }

    /// The share of the timed pass's document reads that Stockpot's document cache answered.
    private static func cacheNote(before: StoreStats, after: StoreStats) -> String {
        let hits = after.documentCacheHits - before.documentCacheHits
        let reads = hits + after.documentCacheMisses - before.documentCacheMisses
        guard reads > 0 else { return "; document cache off or unused" }
        return String(format: "; document cache %.0f%% of %d reads", 100 * Double(hits) / Double(reads), reads)
    }
}
