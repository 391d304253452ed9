// The ordered ids a query returns, readable by position: straight from an ordered index (any
// page in O(log n + page size)) or from a sorted array built by a scan.

import StockpotIndex

/// A query's results in order, addressable by 0-based position.
enum ResultOrder {
    /// The entries of an ordered index, in its order or the reverse.
    case index(OrderedIndex, descending: Bool)
    /// Ids already in result order.
    case ids([Int64])

    /// The number of results.
    var count: Int {
        switch self {
        case .index(let index, _): index.count
        case .ids(let ids): ids.count
        }
    }

    /// The ids at positions `start ..< start + length` (fewer at the end).
    ///
    /// - Complexity: O(log n + length) for an index.
    func ids(from start: Int, length: Int) -> [Int64] {
        guard start >= 0, length > 0, start < count else { return [] }
        switch self {
        case .index(let index, let descending):
            var ids: [Int64] = []
            ids.reserveCapacity(min(length, count - start))
            index.forEach(from: start, descending: descending) { entry in
                ids.append(entry.id)
                return ids.count < length
            }
            return ids
        case .ids(let ids):
            return Array(ids[start..<min(start + length, ids.count)])
        }
    }
}
