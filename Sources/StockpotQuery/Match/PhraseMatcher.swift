// The phrases the index cannot answer by one lookup: a prefix token before the last one
// (`a* + b`), a phrase ending in a prefix (`"a b*"`), and `^` (first token of a column).
// Reads positions from the postings of every token involved.

import StockpotIndex

/// Finds the entries where a phrase's tokens occur at consecutive positions of one column.
struct PhraseMatcher {
    let index: FullTextIndex
    let phrase: MatchPhrase
    /// The allowed columns; nil for all.
    let columns: [Int]?

    /// The matching ids, ascending.
    ///
    /// - Complexity: the entries holding every token are found first (intersections of id
    ///   lists); then the postings of each token (of each token a prefix stands for) are read
    ///   once, keeping those entries' positions.
    func matchingIDs() -> [Int64] {
        let lists = phrase.tokens.map { token in
            token.isPrefix
                ? index.entries(withPrefix: token.text, column: nil)
                : index.entries(containing: token.text, column: nil)
        }
        let candidates = SortedIDs.intersection(lists)
        guard !candidates.isEmpty else { return [] }
        let wanted = Set(candidates)
        let occurrences = phrase.tokens.map { positions(of: $0, in: wanted) }
        return candidates.filter { id in occurs(in: id, occurrences) }
    }

    /// For each wanted entry, the token's positions per column (every column of the index).
    private func positions(of token: MatchToken, in wanted: Set<Int64>) -> [Int64: [Int: Set<Int>]] {
        var result: [Int64: [Int: Set<Int>]] = [:]
        let texts = token.isPrefix ? index.tokens(withPrefix: token.text) : [token.text]
        for text in texts {
            for posting in index.postings(of: text, column: nil) where wanted.contains(posting.id) {
                result[posting.id, default: [:]][posting.column, default: []].formUnion(posting.positions)
            }
        }
        return result
    }

    /// Whether, in an allowed column, token i is at p + i for every i (p = 0 with `^`).
    private func occurs(in id: Int64, _ occurrences: [[Int64: [Int: Set<Int>]]]) -> Bool {
        guard let first = occurrences[0][id] else { return false }
        for (column, starts) in first where columns?.contains(column) ?? true {
            var perToken: [Set<Int>] = []
            for token in occurrences.dropFirst() {
                guard let found = token[id]?[column] else { break }
                perToken.append(found)
            }
            guard perToken.count == occurrences.count - 1 else { continue }
            for start in starts where !phrase.isInitial || start == 0 {
                if perToken.indices.allSatisfy({ perToken[$0].contains(start + $0 + 1) }) { return true }
            }
        }
        return false
    }
}
