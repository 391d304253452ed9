// Ordered visits of the ordered index, ascending or descending, from a position, with each
// entry owned (the walk itself is OrderedIndex+BorrowedVisit.swift's).

extension OrderedIndex {
    /// Visits entries in ascending (or descending) order, from a position, until `body`
    /// returns `false`.
    ///
    /// - Parameters:
    ///   - start: Entries to skip: ascending, the 0-based position of the first entry visited;
    ///     descending, the position counted from the end (0 starts at the largest entry).
    ///     Negative counts as 0; at or past `count` visits nothing.
    ///   - descending: Visit from the largest entry down.
    ///   - body: Called with each entry; returning `false` stops the visit.
    /// - Throws: What `body` throws; the visit stops there.
    /// - Complexity: O(log n + k) for k entries visited.
    package func forEach(
        from start: Int = 0, descending: Bool = false, _ body: (IndexEntry) throws -> Bool
    ) rethrows {
        // The same walk as the borrowed visit, each entry copied out of its node.
        try forEachBorrowed(from: start, descending: descending) { try body($0.entry) }
    }
}
