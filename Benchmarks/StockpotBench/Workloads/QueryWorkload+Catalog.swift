// The query.* workloads of issue 5: which spec each times, how its keys are drawn, how many
// queries, and its target (Stockpot's median at least `targetRatio` times faster). The two
// `-json` workloads are exact and range with rows returned as raw JSON on both sides; the two
// `-tree` workloads read every value of every row on both sides (the others read one field).

import Stockpot

extension QueryWorkload {
    /// All query workloads, in run order.
    static let all = [exact, range, likePrefix, likeSubstring, matchIDs, matchCount, deepPage, exactJSON, rangeJSON, exactTree, rangeTree]

    /// The offset of `query.deep-page`: 50,000, or the middle of a smaller corpus.
    static func deepOffset(documents: Int) -> Int { min(50_000, documents / 2 / 10 * 10) }

    static let exact = QueryWorkload(
        name: "query.exact", summary: "exact BillingCity = random city, first page of 10 documents (median us/query)",
        targetRatio: 4, calls: 2_000, salt: 51
    ) { keys, calls, _ in
        try (0..<calls).map { _ in
            var spec = QuerySpec(queryType: .exact)
            spec.indexPath = "BillingCity"
            spec.matchKey = .string(try keys.text(at: "BillingCity"))
            return QueryCall(spec: spec)
        }
    }

    static let range = QueryWorkload(
        name: "query.range", summary: "AnnualRevenue range of 100 rows, page of 100 documents (median us/query)",
        targetRatio: 2, calls: 1_000, salt: 52
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

    static let exactJSON = variant(of: exact, "-json", "query.exact with rows as raw JSON bytes on both sides, no parse (median us/query)") { $0.json = true }
    static let rangeJSON = variant(of: range, "-json", "query.range with rows as raw JSON bytes on both sides, no parse (median us/query)") { $0.json = true }
    static let exactTree = variant(of: exact, "-tree", "query.exact reading every value of every row on both sides (median us/query)") {
        $0.documentUse = .walkTree
    }
    static let rangeTree = variant(of: range, "-tree", "query.range reading every value of every row on both sides (median us/query)") {
        $0.documentUse = .walkTree
    }

    /// `base` with the same calls and keys, each call changed by `change`: rows as raw JSON on
    /// both sides (`-json`), or every value of every row read on both sides (`-tree`: what
    /// documents read on demand cost a caller that needs all of each one). No issue sets a
    /// target for a variant.
    private static func variant(
        of base: QueryWorkload, _ suffix: String, _ summary: String, _ change: @escaping @Sendable (inout QueryCall) -> Void
    ) -> QueryWorkload {
        QueryWorkload(
            name: base.name + suffix, summary: summary, targetRatio: nil, calls: base.calls, salt: base.salt
        ) { keys, calls, documents in
            try base.make(&keys, calls, documents).map { call in
                var call = call
                change(&call)
                return call
            }
        }
    }

    static let likePrefix = QueryWorkload(
        name: "query.like-prefix", summary: "Name LIKE 'abc%' (lower-cased prefix of a random name), first page (median us/query)",
        targetRatio: 100, calls: 300, salt: 53
    ) { keys, calls, _ in
        try (0..<calls).map { _ in like("\(try keys.prefix(at: "Name", length: 3))%") }
    }

    static let likeSubstring = QueryWorkload(
        name: "query.like-substring", summary: "Name LIKE '%abc%' (3 letters of a random name), first page (median us/query)",
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
        name: "query.deep-page", summary: "all ordered by Name, the page of 10 at offset 50,000 (median us/query)",
        targetRatio: 15, calls: 100, salt: 57
    ) { _, calls, documents in
        let spec = QuerySpec.all(orderPath: "Name", pageSize: 10)
        return Array(repeating: QueryCall(spec: spec, page: deepOffset(documents: documents) / 10), count: calls)
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
