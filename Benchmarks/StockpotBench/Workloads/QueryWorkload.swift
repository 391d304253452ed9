// A query.* workload: seeded query specs run on the loaded query fixture, `Store.query` /
// `Store.count` against the SQL SmartStore issues for the same spec (compiled before timing),
// alternating sides query by query. Median us per query; a sample is cross-checked first.

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
    let targetRatio: Double
    /// Queries timed per side at up to 100,000 documents; larger corpora make fewer (see
    /// ``callCount(documents:)``).
    let calls: Int
    /// Mixed into the run's seed, so each workload draws its own keys.
    let salt: UInt64
    /// The calls, from seeded keys and the number of documents.
    let make: @Sendable (inout QueryKeys, _ calls: Int, _ documents: Int) throws -> [QueryCall]

    /// Queries cross-checked between the sides before timing.
    static let checkedCalls = 25
    /// Queries run on both sides, untimed, before the timed pass.
    static let warmUpCalls = 20

    func run(in context: BenchContext) throws -> BenchResult {
        let fixture = try context.queryFixture()
        var keys = QueryKeys(documents: context.storeDocuments, seed: context.storageSeed(salt))
        let queries = try make(&keys, callCount(documents: fixture.documentCount), fixture.documentCount)
        let sides = try QuerySides(fixture: fixture, calls: queries, parser: context.options.baselineJSON)
        try sides.crossCheck(name, calls: Array(0..<queries.count).filter { $0 % max(1, queries.count / Self.checkedCalls) == 0 })

        var results: UInt64 = 0
        for index in 0..<min(Self.warmUpCalls, queries.count) {
            results &+= UInt64(try sides.stockpot(index)) &+ UInt64(try sides.sqlite(index))
        }
        let cacheBefore = try fixture.store.stats()
        var stockpot = [Double](), sqlite = [Double]()
        stockpot.reserveCapacity(queries.count)
        sqlite.reserveCapacity(queries.count)
        for index in queries.indices {
            // Alternate which side goes first, so neither always runs after the other.
            for side in index % 2 == 0 ? [0, 1] : [1, 0] {
                let start = MonotonicClock.nanoseconds()
                results &+= UInt64(side == 0 ? try sides.stockpot(index) : try sides.sqlite(index))
                let elapsed = Double(MonotonicClock.nanoseconds() &- start) / 1000
                if side == 0 { stockpot.append(elapsed) } else { sqlite.append(elapsed) }
            }
        }
        Sink.consume(results)
        let cacheAfter = try fixture.store.stats()

        let ours = Stopwatch.median(stockpot), theirs = Stopwatch.median(sqlite)
        let ratio = theirs / ours
        return BenchResult(
            workload: name, unit: .microsecondsPerOperation, stockpot: ours, baseline: theirs,
            baselineName: "SmartStore SQLite, " + (context.options.baselineJSON == .foundation ? "Foundation" : "StockpotJSON"),
            note: StorageTarget.note(String(format: ">= %.0fx", targetRatio), met: ratio >= targetRatio)
                + String(format: "; %d queries, %d docs; p90 %.1f vs %.1f us", queries.count, fixture.documentCount,
                    Self.percentile(stockpot, 0.9), Self.percentile(sqlite, 0.9))
                + String(format: "; mean %.1f rows or count", Double(results) / Double(2 * (queries.count + min(Self.warmUpCalls, queries.count))))
                + Self.cacheNote(before: cacheBefore, after: cacheAfter))
    }

    /// The share of the timed pass's document reads that Stockpot's document cache answered.
    private static func cacheNote(before: StoreStats, after: StoreStats) -> String {
        let hits = after.documentCacheHits - before.documentCacheHits
        let reads = hits + after.documentCacheMisses - before.documentCacheMisses
        guard reads > 0 else { return "; document cache off or unused" }
        return String(format: "; document cache %.0f%% of %d reads", 100 * Double(hits) / Double(reads), reads)
    }

    /// ``calls`` scaled by 100,000 / `documents` above 100,000 documents (at least 50), so a
    /// run at 1,000,000 entries does not take ten times as long per workload.
    func callCount(documents: Int) -> Int {
        documents <= 100_000 ? calls : max(min(calls, 50), calls * 100_000 / documents)
    }

    private static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
}
