// Prefetch hints for point reads. A read is a chain of cache misses (key-directory branch,
// leaf, then the record); on this engine's hardware each costs a few hundred nanoseconds, so
// asking for every line a step will need as soon as its address is known overlaps them.

import CPrefetch

/// Cache-line prefetch hints. A hint never faults and changes no result, so an address past
/// the end of a buffer costs nothing but the hint; callers still pass only bytes they own.
package enum CacheLines {
    /// Asks for every cache line of `count` bytes from `start` to be loaded.
    @inlinable @inline(__always) package static func prefetch(_ start: UnsafeRawPointer, count: Int) {
        stockpot_prefetch_lines(start, count)
    }
}
