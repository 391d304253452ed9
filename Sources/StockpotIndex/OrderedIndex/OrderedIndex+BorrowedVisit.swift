// Ordered visits that lend entries in place (text bytes straight from the node's arena, no
// `String` made), for scans that test many keys and keep few, such as LIKE: one entry at a
// time, or a leaf's run of entries at a time (no call per entry).

import StockpotJSON

/// An entry of an ``OrderedIndex`` seen in place during ``OrderedIndex/forEachBorrowed(from:descending:_:)``:
/// valid only inside the visit's body (its bytes belong to the index's node).
package struct BorrowedIndexEntry {
    let block: OrderedIndexBlock
    let slot: Int

    /// The id of the soup entry the value belongs to.
    package var id: Int64 { block.id(at: slot) }

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

/// One leaf of an ``OrderedIndex`` seen in place during
/// ``OrderedIndex/forEachLeafRun(from:descending:_:)``: its entries' ids and text bytes by slot,
/// read straight from the leaf's columns. Valid only inside the visit's body; trivial to copy.
package struct BorrowedIndexLeaf {
    /// The ids column, 4 bytes an id when `narrowIDs`, else 8.
    @usableFromInline let ids: UnsafeRawPointer
    @usableFromInline let narrowIDs: Bool
    @usableFromInline let kinds: UnsafePointer<UInt8>
    /// The text store's spans (4 bytes a span when `narrowSpans`, else 8) and arena; nil when
    /// the leaf has never held text.
    @usableFromInline let spans: UnsafeRawPointer?
    @usableFromInline let narrowSpans: Bool
    @usableFromInline let arena: UnsafeRawPointer?
    let block: OrderedIndexBlock

    init(_ block: OrderedIndexBlock) {
        self.block = block
        ids = UnsafeRawPointer(block.idColumn)
        narrowIDs = block.narrowIDs
        kinds = UnsafePointer(block.kinds)
        narrowSpans = block.narrowSpans
        if let store = block.textStore {
            spans = UnsafeRawPointer(store)
            arena = UnsafeRawPointer(block.arena)
        } else {
            spans = nil
            arena = nil
        }
    }

    /// The id of the entry in `slot`.
    @inlinable @inline(__always)
    package func id(at slot: Int) -> Int64 {
        OrderedIndexBlock.id(in: ids, at: slot, narrow: narrowIDs)
    }

    /// The UTF-8 bytes of the entry in `slot` when its value is text; nil for null and numbers.
    @inlinable @inline(__always)
    package func textBytes(at slot: Int) -> UnsafeRawBufferPointer? {
        // Tag 3 is `OrderedIndexTag.text`; a text entry's leaf always has a text store.
        guard kinds[slot] == 3, let spans, let arena else { return nil }
        let span = OrderedIndexBlock.span(in: spans, at: slot, narrow: narrowSpans)
        return UnsafeRawBufferPointer(start: arena + Int(span >> 32), count: Int(span & 0xFFFF_FFFF))
    }

    /// The leaf's text arena, from its start to the end of the last text of `slots`, when every
    /// entry in `slots` is text and their texts lie in slot order, each starting at or after
    /// the end of the one before or being the very bytes of the one before (an equal text
    /// shared; as a bulk build, a snapshot load and a compaction lay them out; insertions
    /// append out of order); nil otherwise. A search can then run over the
    /// texts as one stretch of bytes and map what it finds back to slots with
    /// ``textBounds(at:)``, in one forward pass.
    ///
    /// - Complexity: O(slots.count).
    package func textsInSlotOrder(_ slots: Range<Int>) -> UnsafeRawBufferPointer? {
        guard let spans, let arena, !slots.isEmpty else { return nil }
        var end = 0
        var previous: UInt64?
        for slot in slots {
            guard kinds[slot] == 3 else { return nil }
            let span = OrderedIndexBlock.span(in: spans, at: slot, narrow: narrowSpans)
            if span == previous { continue }  // the same text as the slot before, shared
            let start = Int(span >> 32)
            guard start >= end else { return nil }
            end = start + Int(span & 0xFFFF_FFFF)
            previous = span
        }
        return UnsafeRawBufferPointer(start: arena, count: end)
    }

    /// The text of `slot` as offsets into the arena ``textsInSlotOrder(_:)`` returns:
    /// `start ..< end`. Meaningful only for text entries.
    @inlinable @inline(__always)
    package func textBounds(at slot: Int) -> (start: Int, end: Int) {
        guard let spans else { return (0, 0) }
        let span = OrderedIndexBlock.span(in: spans, at: slot, narrow: narrowSpans)
        let start = Int(span >> 32)
        return (start, start + Int(span & 0xFFFF_FFFF))
    }

    /// The entry in `slot`, for values that are not text.
    package func entry(at slot: Int) -> BorrowedIndexEntry {
        BorrowedIndexEntry(block: block, slot: slot)
    }
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
        try forEachLeafRun(from: start, descending: descending) { leaf, slots in
            if descending {
                for slot in slots.reversed() {
                    guard try body(BorrowedIndexEntry(block: leaf.block, slot: slot)) else { return false }
                }
            } else {
                for slot in slots {
                    guard try body(BorrowedIndexEntry(block: leaf.block, slot: slot)) else { return false }
                }
            }
            return true
        }
    }

    /// Visits entries in ascending (or descending) order from a position a leaf at a time:
    /// `body` gets each leaf and the slots of it the visit covers, which it reads in ascending
    /// order (descending: from the last slot down), until it returns `false`. The positions
    /// are those of ``forEachBorrowed(from:descending:_:)``: descending, `start` counts from
    /// the end.
    ///
    /// - Complexity: O(log n + k / 64) calls of `body` for k entries visited; nothing is
    ///   allocated.
    package func forEachLeafRun(
        from start: Int = 0, descending: Bool = false, _ body: (BorrowedIndexLeaf, Range<Int>) throws -> Bool
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
        _ node: OrderedIndexBlock, from start: Int, _ body: (BorrowedIndexLeaf, Range<Int>) throws -> Bool
    ) rethrows -> Bool {
        if node.isLeaf {
            return start < node.count ? try body(BorrowedIndexLeaf(node), start..<node.count) : true
        }
        node.prefetchForPositionSearch()
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
        _ node: OrderedIndexBlock, through last: Int, _ body: (BorrowedIndexLeaf, Range<Int>) throws -> Bool
    ) rethrows -> Bool {
        if node.isLeaf {
            return try body(BorrowedIndexLeaf(node), 0..<last + 1)
        }
        node.prefetchForPositionSearch()
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
