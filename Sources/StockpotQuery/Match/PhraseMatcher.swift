// The phrases the index cannot answer by one lookup: a prefix token before the last one
// (`a* + b`), a phrase ending in a prefix (`"a b"*`), `^` (first token of a column), and the
// phrases of a NEAR group. Reads positions from the postings of every token involved.

import StockpotIndex

/// Finds where a phrase's tokens occur at consecutive positions of one column.
struct PhraseMatcher {
    let index: FullTextIndex
    let phrase: MatchPhrase
    /// The allowed columns; nil for all.
    let columns: [Int]?
    /// Per token, for the loaded entries: its positions per column.
    private var occurrences: [[Int64: [Int: Set<Int>]]] = []

    init(index: FullTextIndex, phrase: MatchPhrase, columns: [Int]?) {
        self.index = index
        self.phrase = phrase
        self.columns = columns
    }

    /// The matching ids, ascending.
    ///
    /// - Complexity: the entries holding every token are found first (intersections of id
    ///   lists); then the postings of each token (of each token a prefix stands for) are read
    ///   once, keeping those entries' positions.
    func matchingIDs() -> [Int64] {
        let candidates = candidates()
        guard !candidates.isEmpty else { return [] }
        var loaded = self
        loaded.load(Set(candidates))
        return candidates.filter { id in
            (columns ?? Array(0..<index.columnCount)).contains { !loaded.starts(id: id, column: $0).isEmpty }
        }
    }

    /// The entries holding every token somewhere (a superset of the matches), ascending.
    func candidates() -> [Int64] {
        SortedIDs.intersection(
            phrase.tokens.map { token in
                token.isPrefix
                    ? index.entries(withPrefix: token.text, column: nil)
                    : index.entries(containing: token.text, column: nil)
            })
    }

    /// Reads the tokens' positions in `wanted` entries, for `starts(id:column:)`.
    mutating func load(_ wanted: Set<Int64>) {
        occurrences = phrase.tokens.map { token in
            var result: [Int64: [Int: Set<Int>]] = [:]
            let texts = token.isPrefix ? index.tokens(withPrefix: token.text) : [token.text]
            for text in texts {
                for posting in index.postings(of: text, column: nil) where wanted.contains(posting.id) {
                    result[posting.id, default: [:]][posting.column, default: []].formUnion(posting.positions)
                }
            }
            return result
        }
    }

    /// The positions, ascending, where the phrase starts in a loaded entry's column (only 0
    /// with `^`); token i is at start + i.
    func starts(id: Int64, column: Int) -> [Int] {
        guard let first = occurrences.first?[id]?[column] else { return [] }
        var others: [Set<Int>] = []
        for token in occurrences.dropFirst() {
            guard let found = token[id]?[column] else { return [] }
            others.append(found)
        }
        return first.filter { start in
            (!phrase.isInitial || start == 0) && others.indices.allSatisfy { others[$0].contains(start + $0 + 1) }
        }.sorted()
    }
}
