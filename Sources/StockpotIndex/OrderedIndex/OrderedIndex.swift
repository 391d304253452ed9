// The ordered index: (value, id) entries in a copy-on-write order-statistic B+tree, so a copy is
// an O(1) snapshot and rank and select are O(log n). Lookups are here; insertion, removal,
// ordered visits, bulk building and snapshots are in the OrderedIndex+*.swift files.
import StockpotJSON

/// One entry of an ``OrderedIndex``: an indexed value and the id of the entry that holds it.
///
/// Equality and hashing follow `IndexValue`'s (`1 == 1.0`).
package struct IndexEntry: Sendable, Hashable, CustomStringConvertible {
    /// The indexed value.
    package var value: IndexValue
    /// The id of the soup entry the value belongs to.
    package var id: Int64

    /// An entry for `value` held by entry `id`.
    package init(value: IndexValue, id: Int64) {
        self.value = value
        self.id = id
    }

    /// `(value, id)`, for messages and tests.
    package var description: String { "(\(value), \(id))" }
}

/// A sorted set of (value, id) entries: a copy-on-write order-statistic B+tree.
///
/// Entries sort by value in `IndexValue` order (null < numbers by exact value < text by UTF-8
/// bytes), then by id; one (value, id) pair is held once (so `(1, 7)` and `(1.0, 7)` are the
/// same entry, and the first one inserted stays). NaN, which documents never produce, equals
/// itself and sorts below every other number. Doubles keep their bit patterns (`-0.0` reads
/// back as `-0.0`, though it equals `0.0`).
///
/// Leaves hold up to 64 entries and branches 64 children, each node one malloc'ed block with
/// parallel columns (13 bytes a slot while every id fits 4 bytes, else 17; layout in
/// `OrderedIndexBlock.swift`) and, once it holds text, a text store (a 4-byte span a text entry
/// while the leaf's text is at most 64 KiB, else 8); branches keep each child's entry count,
/// which gives positions. A leaf copied for copy-on-write or made by a split gets a block
/// fitted to its entries (1 to 8 slots to spare, in steps of 8) and is copied into a larger one
/// when it fills; equal texts side by side in a leaf share their bytes. Numbers take about 15
/// bytes an entry after a bulk build and 18 after random inserts in batches between copies.
///
/// Thread safety: `OrderedIndex` is a value. Copying it is O(1) and gives an immutable snapshot:
/// a mutation copies only the nodes on its path that another copy still shares, so distinct
/// copies may be used on different threads at once (one writer per copy). A single copy must
/// not be mutated while another thread reads it.
package struct OrderedIndex: Sendable {
    /// The root; `nil` when the index is empty.
    var root: OrderedIndexNode?
    /// The number of entries.
    package internal(set) var count = 0

    /// The root node, as an object whose identity names this version of the index: while a
    /// caller holds it, no copy of the index can change that node in place (a mutation finds
    /// it shared and copies it), so the same identity means the same entries. Nil when empty.
    package var versionToken: AnyObject? { root }
    /// The most entries a leaf holds.
    let leafCapacity: Int
    /// The most children a branch holds.
    let branchCapacity: Int
    /// Whether every node keeps its ids in 4 bytes (``OrderedIndexBlock``): true until an id
    /// outside 0...UInt32.max arrives, which rebuilds the index with 8-byte ids for good.
    package internal(set) var narrowIDs = true

    /// An empty index with the default node sizes (64 entries a leaf, 64 children a branch).
    package init() {
        self.init(leafCapacity: 64, branchCapacity: 64)
    }

    /// An empty index with the given node sizes; small ones make deep trees in tests.
    ///
    /// - Precondition: `leafCapacity` in 2...4096 and `branchCapacity` in 3...4096 (programmer
    ///   error).
    package init(leafCapacity: Int, branchCapacity: Int) {
        precondition(
            (2...4096).contains(leafCapacity) && (3...4096).contains(branchCapacity),
            "OrderedIndex: node capacity out of range")
        self.leafCapacity = leafCapacity
        self.branchCapacity = branchCapacity
    }

    /// `true` when the index holds `(value, id)`.
    ///
    /// - Complexity: O(log n).
    package func contains(_ value: IndexValue, id: Int64) -> Bool {
        OrderedIndexProbe.with(value, id: id) { contains($0) }
    }

    func contains(_ probe: OrderedIndexProbe) -> Bool {
        // `self` holds the root, which holds every block, for the whole call; the descent goes
        // from block to block without touching node objects or reference counts.
        guard var block = root?.block else { return false }
        block.prefetchForValueSearch()
        while !block.isLeaf {
            block = block.childBlock(at: block.countBefore(probe, inclusive: true))
            block.prefetchForValueSearch()
        }
        let i = block.countBefore(probe, inclusive: false)
        return i < block.count && block.compare(at: i, to: probe) == 0
    }

    /// The number of entries before `(value, id)`: the 0-based position of the first entry at or
    /// after it in ascending order.
    ///
    /// - Complexity: O(log n).
    package func rank(of value: IndexValue, id: Int64) -> Int {
        OrderedIndexProbe.with(value, id: id) { countBefore($0, inclusive: false) }
    }

    /// The number of entries whose value is below `value`: the position of the first entry
    /// with `value` or a greater one.
    ///
    /// - Complexity: O(log n).
    package func lowerBound(_ value: IndexValue) -> Int {
        OrderedIndexProbe.with(value, id: .min) { countBefore($0, inclusive: false) }
    }

    /// The number of entries whose value is at or below `value`: the position just after the
    /// last entry with `value`.
    ///
    /// - Complexity: O(log n).
    package func upperBound(_ value: IndexValue) -> Int {
        OrderedIndexProbe.with(value, id: .max) { countBefore($0, inclusive: true) }
    }

    /// The positions `lower..<upper` of the entries with `begin <= value <= end`, so a range
    /// query has `upper - lower` rows and its k-th row is `entry(at: lower + k)`.
    ///
    /// - Parameters:
    ///   - begin: The smallest value included; `nil` for no lower limit.
    ///   - end: The largest value included; `nil` for no upper limit.
    /// - Returns: The positions; empty (at `lower`) when `end` is below `begin`.
    /// - Complexity: O(log n).
    package func positions(from begin: IndexValue?, through end: IndexValue?) -> Range<Int> {
        let lower = begin.map(lowerBound) ?? 0
        let upper = end.map(upperBound) ?? count
        return lower..<max(lower, upper)
    }

    /// The number of entries before `probe` (`inclusive`: at or before it).
    func countBefore(_ probe: OrderedIndexProbe, inclusive: Bool) -> Int {
        guard var block = root?.block else { return 0 }
        block.prefetchForValueSearch()
        var total = 0
        while !block.isLeaf {
            let child = block.countBefore(probe, inclusive: inclusive)
            total += block.entries(before: child)
            block = block.childBlock(at: child)
            block.prefetchForValueSearch()
        }
        return total + block.countBefore(probe, inclusive: inclusive)
    }

    /// The entry at 0-based ascending `position`, or `nil` when there is none.
    ///
    /// - Complexity: O(log n).
    package func entry(at position: Int) -> IndexEntry? {
        guard let (leaf, index) = leaf(containing: position) else { return nil }
        return leaf.entry(at: index)
    }

    /// The leaf block holding ascending `position`, and the position within it.
    func leaf(containing position: Int) -> (OrderedIndexBlock, Int)? {
        guard position >= 0 && position < count, var block = root?.block else { return nil }
        var rest = position
        while !block.isLeaf {
            block.prefetchForPositionSearch()
            let counts = block.childCounts
            var child = 0
            while rest >= counts[child] {
                rest -= counts[child]
                child += 1
            }
            block = block.childBlock(at: child)
        }
        return (block, rest)
    }

    /// The ids of the entries whose value equals `value`, ascending.
    ///
    /// - Complexity: O(log n + k) for k ids.
    package func ids(equalTo value: IndexValue) -> [Int64] {
        let range = positions(from: value, through: value)
        guard !range.isEmpty else { return [] }
        var ids: [Int64] = []
        ids.reserveCapacity(range.count)
        forEach(from: range.lowerBound) { entry in
            ids.append(entry.id)
            return ids.count < range.count
        }
        return ids
    }

    /// The bytes the index's nodes take from the allocator (node objects, blocks and text
    /// stores, with glibc malloc's chunk rounding), excluding this struct. Nodes shared with
    /// other copies are counted in full.
    ///
    /// - Complexity: O(number of nodes), about n / 45.
    package var approximateMemoryBytes: Int {
        guard let root else { return 0 }
        return Self.allocatedBytes(below: root)
    }

    private static func allocatedBytes(below node: OrderedIndexNode) -> Int {
        var total = node.allocatedBytes
        if !node.isLeaf {
            for i in 0..<node.childCount { total += allocatedBytes(below: node.child(at: i)) }
        }
        return total
    }

    /// glibc malloc's chunk size for a request of `bytes`: 8 bytes of header, 16-byte rounding,
    /// 32 bytes at least.
    static func mallocChunk(_ bytes: Int) -> Int {
        max(32, (bytes + 8 + 15) & ~15)
    }
}

extension OrderedIndex {
    /// The number of entries whose value is below the text whose UTF-8 bytes are `text`: the
    /// position of the first entry with that text or a greater value. The same as
    /// `lowerBound(.text(...))` with no `String` made.
    ///
    /// - Complexity: O(log n).
    package func lowerBound(textBytes text: UnsafeRawBufferPointer) -> Int {
        let probe = OrderedIndexProbe(
            kind: OrderedIndexTag.text, payload: OrderedIndexOrder.textPrefix(text), id: .min, text: text)
        return countBefore(probe, inclusive: false)
    }
}

extension OrderedIndex {
    /// ``lowerBound(textBytes:)`` of each of `count` texts, which must ascend by bytes (equal
    /// ones may repeat); `text(i)` lends the i-th, valid until the next call. Each is looked
    /// for first in the leaf where the one before landed, when that leaf's last entry is at or
    /// above it, and by a descent from the root otherwise. Probes close together in the index
    /// (a LIKE prefix's case variants and their ends) share one descent.
    ///
    /// - Complexity: O(log n) per probe at most; O(log leaf size) for one that lands in the
    ///   leaf of the one before.
    package func lowerBounds(ofAscendingTexts count: Int, _ text: (Int) -> UnsafeRawBufferPointer) -> [Int] {
        var bounds: [Int] = []
        bounds.reserveCapacity(count)
        // `self` holds the root, which holds every block, for the whole call.
        guard let root = root?.block else { return Array(repeating: 0, count: count) }
        // The leaf the last probe landed in, the position of its first slot, and the slot.
        var leaf: OrderedIndexBlock?
        var leafStart = 0
        var slot = 0
        for i in 0..<count {
            if leaf != nil, leafStart + slot == self.count {
                // The last probe is past every entry, so this one is too.
                bounds.append(self.count)
                continue
            }
            let bytes = text(i)
            let probe = OrderedIndexProbe(
                kind: OrderedIndexTag.text, payload: OrderedIndexOrder.textPrefix(bytes), id: .min, text: bytes)
            if let current = leaf, slot < current.count, current.compare(at: current.count - 1, to: probe) > 0 {
                // The bound is at or after the last one, and at or before this leaf's last
                // entry: a binary search of the rest of the leaf.
                var low = slot
                var high = current.count - 1
                while low < high {
                    let middle = (low + high) >> 1
                    if current.compare(at: middle, to: probe) < 0 { low = middle + 1 } else { high = middle }
                }
                slot = low
            } else {
                var block = root
                block.prefetchForValueSearch()
                var total = 0
                while !block.isLeaf {
                    let child = block.countBefore(probe, inclusive: false)
                    total += block.entries(before: child)
                    block = block.childBlock(at: child)
                    block.prefetchForValueSearch()
                }
                (leaf, leafStart, slot) = (block, total, block.countBefore(probe, inclusive: false))
            }
            bounds.append(leafStart + slot)
        }
        return bounds
    }
}
