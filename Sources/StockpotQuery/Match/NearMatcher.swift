// FTS5's NEAR groups: the entries holding every phrase of the group in one column, with at
// most `distance` tokens between the end of one and the start of the last.

import StockpotIndex

/// Finds the entries matching `NEAR(p1 p2 ..., distance)`.
///
/// FTS5's rule (`fts5ExprNearIsMatch`): a choice of one occurrence per phrase, all in one
/// column, where every phrase's occurrence ends at most `distance` tokens before the last
/// occurrence starts.
struct NearMatcher {
    let index: FullTextIndex
    let phrases: [MatchPhrase]
    let distance: Int

    /// The matching ids, ascending.
    func matchingIDs() -> [Int64] {
        // Every phrase of a group carries the same column filters.
        let columns = phrases[0].columns.resolved(count: index.columnCount)
        if let columns, columns.isEmpty { return [] }
        var matchers = phrases.map { PhraseMatcher(index: index, phrase: $0, columns: columns) }
        let candidates = SortedIDs.intersection(matchers.map { $0.candidates() })
        guard !candidates.isEmpty else { return [] }
        let wanted = Set(candidates)
        for index in matchers.indices { matchers[index].load(wanted) }
        let lengths = phrases.map(\.tokens.count)
        return candidates.filter { id in
            (columns ?? Array(0..<index.columnCount)).contains { column in
                let starts = matchers.map { $0.starts(id: id, column: column) }
                return starts.allSatisfy { !$0.isEmpty } && Self.isNear(starts, lengths: lengths, distance: distance)
            }
        }
    }

    /// Whether some `last` among the starts has, for every phrase i, a start in
    /// `last - lengths[i] - distance ... last`.
    static func isNear(_ starts: [[Int]], lengths: [Int], distance: Int) -> Bool {
        for last in starts.joined() {
            let near = starts.indices.allSatisfy { phrase in
                starts[phrase].contains { $0 <= last && $0 >= last - lengths[phrase] - distance }
            }
            if near { return true }
        }
        return false
    }
}
