// What the match-expression evaluator needs beyond single lookups: the indexed tokens that start
// with a prefix, so that a phrase may end in (or hold) a prefix token, and `^` can check positions.

extension FullTextIndex {
    /// The indexed tokens that start with `prefix` (byte-wise), in byte order.
    ///
    /// - Complexity: O(log tokens) to find the first, then O(1) per token returned.
    package func tokens(withPrefix prefix: String) -> [String] {
        var result: [String] = []
        vocabulary.forEach(withPrefix: Self.key(prefix)) { result.append($0.text) }
        return result
    }
}
