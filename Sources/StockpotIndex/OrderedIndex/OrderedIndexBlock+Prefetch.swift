// Prefetch hints for descents of an index the caches no longer hold (after a large scan
// elsewhere, for one). A binary search of a block reads its value column a line at a time, each
// line chosen by the comparison before, so a cold descent pays a memory latency for every step
// of every level. Asking for all the lines a search may read as soon as the block's header is in
// lets them load together: about two latencies a level instead of six.

import CPrefetch

extension OrderedIndexBlock {
    /// Asks for the lines a search by value reads: the entries' payloads, ids and kinds, and a
    /// branch's child counts and child block addresses. A hint only: it changes no result.
    @inline(__always) func prefetchForValueSearch() {
        let slots = slotCapacity
        let entries = count
        Self.prefetch(base + Self.headerSize, bytes: 8 * entries)
        Self.prefetch(idColumn, bytes: idWidth * entries)
        Self.prefetch(base + kindsOffset, bytes: entries)
        if !isLeaf { prefetchChildColumns(slots: slots) }
    }

    /// Asks for the lines a descent by position reads: a branch's child counts and child block
    /// addresses (nothing for a leaf, whose entries are read in order).
    @inline(__always) func prefetchForPositionSearch() {
        guard !isLeaf else { return }
        prefetchChildColumns(slots: slotCapacity)
    }

    @inline(__always) private func prefetchChildColumns(slots: Int) {
        let children = childCount
        let area = childArea
        Self.prefetch(area, bytes: 8 * children)
        Self.prefetch(area + 16 * (slots + 1), bytes: 8 * children)
    }

    @inline(__always) private static func prefetch(_ start: UnsafeMutableRawPointer, bytes: Int) {
        stockpot_prefetch_lines(start, bytes)
    }
}
