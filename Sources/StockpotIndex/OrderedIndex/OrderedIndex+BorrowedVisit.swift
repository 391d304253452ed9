// Ordered visits that lend each entry's key in place (text bytes straight from the node's
// arena, no `String` made), for scans that test many keys and keep few, such as LIKE.

import StockpotJSON

/// An entry of an ``OrderedIndex`` seen in place during ``OrderedIndex/forEachBorrowed(from:descending:_:)``:
/// valid only inside the visit's body (its bytes belong to the index's node).
package struct BorrowedIndexEntry {
    let block: OrderedIndexBlock
    let slot: Int

    /// The id of the soup entry the value belongs to.
    package var id: Int64 { block.ids[slot] }

    /// The value's UTF-8 bytes when it is text; nil for null and numbers. Valid only inside the
    /// visit's body.
    package var textBytes: UnsafeRawBufferPointer? {
        block.kinds[slot] == OrderedIndexTag.text ? block.text(at: slot) : nil
    }

    /// The value, as an owned `IndexValue` (text is copied into a `String`).
    package var value: IndexValue { block.value(at: slot) }

    /// The entry, owned (text is copied into a `String`).
    var entry: IndexEntry { block.entry(at: slot) }
}

extension OrderedIndex {
    /// Visits entries in ascending (or descending) order from a position, lending each one in
    /// place, until `body` returns `false`: a descent by subtree counts to the first entry,
    /// then a walk along the leaves. Same positions as ``forEach(from:descending:_:)``.
    ///
    /// - Complexity: O(log n + k) for k entries visited; nothing is allocated per entry.
    package func forEachBorrowed(
        from start: Int = 0, descending: Bool = false, _ body: (BorrowedIndexEntry) throws -> Bool
    ) rethrows {
        let skip = max(start, 0)
        // `self` holds the root, which holds every block, for the whole visit.
        guard let root = root?.block, skip < count else { return }
        if descending {
            _ = try Self.lendDescending(root, through: count - 1 - skip, body)
        } else {
            _ = try Self.lendAscending(root, from: skip, body)
        }
    }

    private static func lendAscending(
        _ node: OrderedIndexBlock, from start: Int, _ body: (BorrowedIndexEntry) throws -> Bool
    ) rethrows -> Bool {
        if node.isLeaf {
            for i in start..<node.count {
                guard try body(BorrowedIndexEntry(block: node, slot: i)) else { return false }
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
            guard try lendAscending(node.childBlock(at: child), from: rest, body) else { return false }
            rest = 0
            child += 1
        }
        return true
    }

    private static func lendDescending(
        _ node: OrderedIndexBlock, through last: Int, _ body: (BorrowedIndexEntry) throws -> Bool
    ) rethrows -> Bool {
        if node.isLeaf {
            for i in stride(from: last, through: 0, by: -1) {
                guard try body(BorrowedIndexEntry(block: node, slot: i)) else { return false }
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
            guard try lendDescending(node.childBlock(at: child), through: rest, body) else { return false }
            child -= 1
            if child >= 0 { rest = node.childCounts[child] - 1 }
        }
        return true
    }
}
