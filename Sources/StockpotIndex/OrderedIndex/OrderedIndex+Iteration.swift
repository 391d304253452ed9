// Ordered visits of the ordered index, ascending or descending, from a position: a descent
// by subtree counts to the first entry, then a walk along the leaves.

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
        let skip = max(start, 0)
        // `self` holds the root, which holds every block, for the whole visit.
        guard let root = root?.block, skip < count else { return }
        if descending {
            _ = try Self.visitDescending(root, through: count - 1 - skip, body)
        } else {
            _ = try Self.visitAscending(root, from: skip, body)
        }
    }

    /// Visits the entries of `node` from position `start` up; `false` when `body` stopped.
    private static func visitAscending(
        _ node: OrderedIndexBlock, from start: Int, _ body: (IndexEntry) throws -> Bool
    ) rethrows -> Bool {
        if node.isLeaf {
            for i in start..<node.count {
                guard try body(node.entry(at: i)) else { return false }
            }
            return true
        }
        var child = 0
        var rest = start
        while rest >= node.childCounts[child] {
            rest -= node.childCounts[child]
            child += 1
        }
        while child < node.childCount {
            guard try visitAscending(node.childBlock(at: child), from: rest, body) else { return false }
            rest = 0
            child += 1
        }
        return true
    }

    /// Visits the entries of `node` from position `last` down; `false` when `body` stopped.
    private static func visitDescending(
        _ node: OrderedIndexBlock, through last: Int, _ body: (IndexEntry) throws -> Bool
    ) rethrows -> Bool {
        if node.isLeaf {
            for i in stride(from: last, through: 0, by: -1) {
                guard try body(node.entry(at: i)) else { return false }
            }
            return true
        }
        var child = 0
        var rest = last
        while rest >= node.childCounts[child] {
            rest -= node.childCounts[child]
            child += 1
        }
        while child >= 0 {
            guard try visitDescending(node.childBlock(at: child), through: rest, body) else { return false }
            child -= 1
            if child >= 0 { rest = node.childCounts[child] - 1 }
        }
        return true
    }
}
