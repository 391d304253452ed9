// Visiting the entries equal to one value: one descent to the first of them, then along the
// leaves while they are equal, compared in place. An equality lookup per row (an equi-join)
// pays one descent and builds no text value.

import StockpotJSON

extension OrderedIndex {
    /// Visits the entries whose value equals `value` (`IndexValue` equality: `1 == 1.0`), in
    /// ascending order (by id), until `body` returns `false`.
    ///
    /// A text entry is handed to `body` with `value` itself as its value (its bytes are the
    /// same), so no string is built; a numeric entry has its own value (`1.0` for `1`).
    ///
    /// - Complexity: O(log n + k) for k entries visited.
    package func forEachEntry(equalTo value: IndexValue, _ body: (IndexEntry) throws -> Bool) rethrows {
        // `self` holds the root, which holds every block, for the whole visit.
        guard let root = root?.block else { return }
        try OrderedIndexProbe.with(value, id: .min) { probe in
            _ = try Self.visitEqual(root, probe, value, body)
        }
    }

    /// Visits the entries of `node` equal to `probe`'s value from the first of them; `false`
    /// when `body` stopped or an entry past them was reached.
    private static func visitEqual(
        _ node: OrderedIndexBlock, _ probe: OrderedIndexProbe, _ value: IndexValue, _ body: (IndexEntry) throws -> Bool
    ) rethrows -> Bool {
        // The probe's id is the lowest, so this is the first entry (or child) that can be equal.
        var i = node.countBefore(probe, inclusive: false)
        if node.isLeaf {
            while i < node.count {
                guard node.compareValue(at: i, to: probe) == 0 else { return false }
                let entryValue = probe.kind == OrderedIndexTag.text ? value : node.value(at: i)
                guard try body(IndexEntry(value: entryValue, id: node.id(at: i))) else { return false }
                i += 1
            }
            return true
        }
        while i < node.childCount {
            guard try visitEqual(node.childBlock(at: i), probe, value, body) else { return false }
            i += 1
        }
        return true
    }
}
