// The ordered ids a query returns, readable by position: a run of positions of an ordered
// index (any page in O(log n + page size)), ids already put in order by a search or scan, or
// an ordered index filtered by a set of ids (a page walks only as far as it needs).

import StockpotIndex

/// A query's results in order, addressable by 0-based position.
package enum ResultOrder: Sendable {
    /// The entries at `positions` of an ordered index, in its order or the reverse.
    case index(OrderedIndex, positions: Range<Int>, descending: Bool)
    /// The entries at several ascending, disjoint runs of positions of an ordered index.
    case runs(OrderedIndex, [Range<Int>], descending: Bool)
    /// Ids already in result order.
    case ids([Int64])
    /// The entries of an ordered index whose ids are in `members` (`count` of them), in its
    /// order or the reverse: a page walks the index only as far as that page.
    case filtered(OrderedIndex, members: Set<Int64>, count: Int, descending: Bool)

    /// Every entry of an ordered index.
    package static func all(_ index: OrderedIndex, descending: Bool) -> ResultOrder {
        .index(index, positions: 0..<index.count, descending: descending)
    }

    /// The number of results.
    package var count: Int {
        switch self {
        case .index(_, let positions, _): positions.count
        case .runs(_, let runs, _): runs.reduce(0) { $0 + $1.count }
        case .ids(let ids): ids.count
        case .filtered(_, _, let count, _): count
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
        case .runs(let index, let runs, let descending):
            var ids: [Int64] = []
            ids.reserveCapacity(wanted)
            var skip = start
            for run in descending ? runs.reversed() : runs {
                guard ids.count < wanted else { break }
                if skip >= run.count {
                    skip -= run.count
                    continue
                }
                ids += ResultOrder.index(index, positions: run, descending: descending)
                    .ids(from: skip, length: wanted - ids.count)
                skip = 0
            }
            return ids
        case .ids(let ids):
            return Array(ids[start..<start + wanted])
        case .filtered(let index, let members, _, let descending):
            var ids: [Int64] = []
            ids.reserveCapacity(wanted)
            var skipped = 0
            index.forEach(descending: descending) { entry in
                guard members.contains(entry.id) else { return true }
                if skipped < start {
                    skipped += 1
                } else {
                    ids.append(entry.id)
                }
                return ids.count < wanted
            }
            return ids
        }
    }

    /// Every id, in result order.
    package var allIDs: [Int64] { ids(from: 0, length: count) }
}
