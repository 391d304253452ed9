// Evaluates a match expression over a FullTextIndex: phrases through the index's lookups,
// AND / OR / NOT as merges of ascending id lists; and counts, from posting lengths when it can.

import StockpotIndex

extension MatchExpression {
    /// The ids of the entries that match, ascending.
    ///
    /// - Parameter index: the soup's full-text index; column numbers at or past its
    ///   `columnCount` match nothing.
    /// - Complexity: each phrase costs its lookups (see `FullTextIndex`); each operator a
    ///   linear merge of its operands (intersections gallop through the longer list).
    package func matchingIDs(in index: FullTextIndex) -> [Int64] {
        MatchEvaluator(index: index).evaluate(root)
    }

    /// The number of entries that match.
    ///
    /// A single term in every column is answered from its posting list's length without
    /// reading it; anything else counts the evaluated ids.
    package func count(in index: FullTextIndex) -> Int {
        if case .phrase(let phrase) = root, phrase.tokens.count == 1, !phrase.tokens[0].isPrefix,
            !phrase.isInitial
        {
            switch phrase.columns.resolved(count: index.columnCount) {
            case nil: return index.count(containing: phrase.tokens[0].text, column: nil)
            case let columns? where columns.count == 1:
                return index.count(containing: phrase.tokens[0].text, column: columns[0])
            default: break
            }
        }
        return matchingIDs(in: index).count
    }
}

/// Evaluates nodes against one index.
struct MatchEvaluator {
    let index: FullTextIndex

    func evaluate(_ node: MatchNode) -> [Int64] {
        switch node {
        case .phrase(let phrase):
            return evaluate(phrase)
        case .and(let children):
            // Stop at the first child that matches nothing; intersect the smallest lists first.
            var lists: [[Int64]] = []
            for child in children {
                let ids = evaluate(child)
                if ids.isEmpty { return [] }
                lists.append(ids)
            }
            return SortedIDs.intersection(lists)
        case .near(let phrases, let distance):
            return NearMatcher(index: index, phrases: phrases, distance: distance).matchingIDs()
        case .or(let children):
            return SortedIDs.union(children.map(evaluate))
        case .not(let left, let excluded):
            var kept = evaluate(left)
            for node in excluded where !kept.isEmpty {
                kept = SortedIDs.subtracting(kept, evaluate(node))
            }
            return kept
        }
    }

    func evaluate(_ phrase: MatchPhrase) -> [Int64] {
        guard !phrase.tokens.isEmpty else { return [] }
        let columns = phrase.columns.resolved(count: index.columnCount)
        if let columns, columns.isEmpty { return [] }
        let simple =
            !phrase.isInitial && phrase.tokens.dropLast().allSatisfy { !$0.isPrefix }
            && (phrase.tokens.count == 1 || !phrase.tokens.last!.isPrefix)
        guard simple else {
            return PhraseMatcher(index: index, phrase: phrase, columns: columns).matchingIDs()
        }
        let words = phrase.tokens.map(\.text)
        func lookup(_ column: Int?) -> [Int64] {
            if phrase.tokens[0].isPrefix { return index.entries(withPrefix: words[0], column: column) }
            return words.count == 1
                ? index.entries(containing: words[0], column: column)
                : index.entries(withPhrase: words, column: column)
        }
        guard let columns else { return lookup(nil) }
        return SortedIDs.union(columns.map(lookup))
    }
}
