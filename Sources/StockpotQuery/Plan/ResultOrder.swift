// The ordered ids a query returns, readable by position: a run of positions of an ordered
// index (any page in O(log n + page size)) or ids already put in order by a search or scan.

import StockpotIndex

/// A query's results in order, addressable by 0-based position.
package enum ResultOrder: Sendable {
    /// The entries at `positions` of an ordered index, in its order or the reverse.
    case index(OrderedIndex, positions: Range<Int>, descending: Bool)
    /// Ids already in result order.
    case ids([Int64])

    /// Every entry of an ordered index.
    package static func all(_ index: OrderedIndex, descending: Bool) -> ResultOrder {
        .index(index, positions: 0..<index.count, descending: descending)
    }

    /// The number of results.
    package var count: Int {
        switch self {
        case .index(_, let positions, _): positions.count
        case .ids(let ids): ids.count
        }
    }

    /// The ids at result positions `start ..< start + length` (fewer at the end).
    ///
    /// - Complexity: O(log n + length) for an index.
    package func ids(from start: Int, length: Int) -> [Int64] {
        guard start >= 0, length > 0, start < count else { return [] }
        let wanted = min(length, count - start)
        switch self {
        case .index(let index, let positions, let descending):
            var ids: [Int64] = []
            ids.reserveCapacity(wanted)
            // Descending visits count from the end of the index.
            let first = descending ? index.count - positions.upperBound + start : positions.lowerBound + start
            index.forEach(from: first, descending: descending) { entry in
                ids.append(entry.id)
                return ids.count < wanted
            }
            return ids
        case .ids(let ids):
            return Array(ids[start..<start + wanted])
        }
    }

    /// Every id, in result order.
    package var allIDs: [Int64] { ids(from: 0, length: count) }
}
