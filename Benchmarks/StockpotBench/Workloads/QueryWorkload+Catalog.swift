// The query.* workloads: which spec each times, how its keys are drawn, how many queries, and
// its target (Stockpot's median at least `targetRatio` times faster). Every page-returning
// headline row hands the caller each whole document's raw JSON on both sides; `-tree` rows
// read every value of every row on both sides; `-field` rows read one field (Stockpot's row
// read lazily, SQLite's column). `-zipf` rows draw keys Zipf-skewed, `-after-write` rows update
// one entry before every call, `-cold` rows time the first call after a reopen.

import Stockpot

extension QueryWorkload {
    /// All query workloads, in run order.
    static let all: [QueryWorkload] =
        family(exact, target: 3, tunedTarget: 2, coldTarget: 2) + family(range, target: 4, coldTarget: nil)
        + [exactCityPage, likePrefix, likeSubstring, matchIDs, matchCount, deepPage, pageWalk]

    /// The headline row of `base` (raw JSON rows) with `target`, and its variants.
    private static func family(
        _ base: QueryWorkload, target: Double, tunedTarget: Double? = nil, coldTarget: Double?
    ) -> [QueryWorkload] {
        var headline = base
        headline.targetRatio = target
        headline.tunedTargetRatio = tunedTarget
        return [
            headline,
            variant(of: base, "-zipf", "keys Zipf-skewed (s = 0.99)") { $0.skewed = true },
            variant(of: base, "-tree", "every value of every row read on both sides", shape: .tree),
            variant(of: base, "-field", "Name read lazily vs SQLite's Name column", shape: .field),
            variant(of: base, "-after-write", "one entry updated before every call") { $0.mode = .afterWrite },
            variant(
                of: base, "-cold", "both sides reopened with their files out of the page cache, first call",
                target: coldTarget
            ) { $0.mode = .cold },
        ]
    }

    /// `base` under another name, its calls changed to `shape` and the workload by `change`.
    private static func variant(
        of base: QueryWorkload, _ suffix: String, _ summary: String, shape: RowShape? = nil, target: Double? = nil,
        _ change: (inout QueryWorkload) -> Void = { _ in }
    ) -> QueryWorkload {
        let make = base.make
        var workload = QueryWorkload(
            name: base.name + suffix, summary: base.name + ", " + summary, targetRatio: target, calls: base.calls,
            salt: base.salt
        ) { keys, calls, documents in
            try make(&keys, calls, documents).map { call in
                var call = call
                if let shape { call.shape = shape }
                return call
            }
        }
        change(&workload)
        return workload
    }

    /// Exact on `Name` (59,000 distinct names in 100,000 accounts; a drawn document's name
    /// matches 2.5 documents on average), so that every call reads its own rows.
    static let exact = QueryWorkload(
        name: "query.exact",
        summary: "exact Name = a random account's name, first page of 10, raw JSON rows (median us/query)",
        targetRatio: nil, calls: 2_000, salt: 51
    ) { keys, calls, _ in
        try (0..<calls).map { _ in
            var spec = QuerySpec(queryType: .exact)
            spec.indexPath = "Name"
            spec.matchKey = .string(try keys.text(at: "Name"))
            return QueryCall(spec: spec)
        }
    }

    /// Paging inside a large exact match: the page of 10 holding a drawn document among the
    /// ~2,000 accounts of its city (offset paging on both sides, as SmartStore pages).
    static let exactCityPage = QueryWorkload(
        name: "query.exact-city-page",
        summary: "exact BillingCity = city, the page of 10 holding a random document, raw JSON rows (median us/query)",
        targetRatio: nil, calls: 1_000, salt: 59
    ) { keys, calls, _ in
        try (0..<calls).map { _ in
            let (city, page) = try keys.pageHolding(at: "BillingCity", pageSize: 10)
            var spec = QuerySpec(queryType: .exact)
            spec.indexPath = "BillingCity"
            spec.matchKey = .string(city)
            return QueryCall(spec: spec, page: page)
        }
    }

    static let range = QueryWorkload(
        name: "query.range", summary: "AnnualRevenue range of 100 rows at a random place, page of 100, raw JSON rows (median us/query)",
        targetRatio: nil, calls: 1_000, salt: 52
    ) { keys, calls, _ in
        try keys.ranges(at: "AnnualRevenue", type: .floating, rows: 100, count: calls).map { begin, end in
            var spec = QuerySpec(queryType: .range)
            spec.indexPath = "AnnualRevenue"
            spec.beginKey = begin
            spec.endKey = end
            spec.pageSize = 100
            return QueryCall(spec: spec)
        }
    }

    /// Pages of 10 in the all-by-Name order: `query.deep-page` and `query.page-walk`.
    static let pagesOfAll = QuerySpec.all(orderPath: "Name", pageSize: 10)

    static let likePrefix = QueryWorkload(
        name: "query.like-prefix", summary: "Name LIKE 'abc%' (lower-cased prefix of a random name), first page, raw JSON rows (median us/query)",
        targetRatio: 100, calls: 300, salt: 53
    ) { keys, calls, _ in
        try (0..<calls).map { _ in like("\(try keys.prefix(at: "Name", length: 3))%") }
    }

    static let likeSubstring = QueryWorkload(
        name: "query.like-substring", summary: "Name LIKE '%abc%' (3 letters of a random name), first page, raw JSON rows (median us/query)",
        targetRatio: 3, calls: 100, salt: 54
    ) { keys, calls, _ in
        try (0..<calls).map { _ in like("%\(try keys.infix(at: "Name", length: 3))%") }
    }

    static let matchIDs = QueryWorkload(
        name: "query.match-ids", summary: "Description MATCH one random word, first 100 ids by _soupEntryId (median us/query)",
        targetRatio: 15, calls: 1_000, salt: 55
    ) { keys, calls, _ in
        try (0..<calls).map { _ in
            var spec = match(try keys.word(at: "Description"))
            spec.selectPaths = ["_soupEntryId"]
            spec.pageSize = 100
            return QueryCall(spec: spec)
        }
    }

    static let matchCount = QueryWorkload(
        name: "query.match-count", summary: "count of Description MATCH one random word (median us/query)",
        targetRatio: 400, calls: 1_000, salt: 56
    ) { keys, calls, _ in
        try (0..<calls).map { _ in QueryCall(spec: match(try keys.word(at: "Description")), counts: true) }
    }

    static let deepPage = QueryWorkload(
        name: "query.deep-page", summary: "all ordered by Name, the page of 10 at a random offset, raw JSON rows (median us/query)",
        targetRatio: 50, calls: 200, salt: 57
    ) { keys, calls, documents in
        (0..<calls).map { _ in QueryCall(spec: pagesOfAll, page: keys.below(max(1, documents / 10))) }
    }

    static let pageWalk = QueryWorkload(
        name: "query.page-walk", summary: "all ordered by Name, consecutive pages of 10 from a random one, raw JSON rows (median us/query)",
        targetRatio: nil, calls: 1_000, salt: 58
    ) { keys, calls, documents in
        let pages = max(1, documents / 10)
        let start = keys.below(pages)
        return (0..<calls).map { call in QueryCall(spec: pagesOfAll, page: (start + call) % pages, walk: true) }
    }

    private static func like(_ pattern: String) -> QueryCall {
        var spec = QuerySpec(queryType: .like)
        spec.indexPath = "Name"
        spec.likeKey = pattern
        return QueryCall(spec: spec)
    }

    /// A match of `word` in Description, ordered by entry id (the default order would be
    /// the Description text).
    private static func match(_ word: String) -> QuerySpec {
        var spec = QuerySpec(queryType: .match)
        spec.indexPath = "Description"
        spec.matchKey = .string(word)
        spec.orderPath = "_soupEntryId"
        return spec
    }
}
