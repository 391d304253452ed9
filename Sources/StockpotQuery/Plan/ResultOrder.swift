// The ordered ids a query returns, readable by position: a run of positions of an ordered
// index (any page in O(log n + page size)), ids already put in order by a search or scan, or
// an ordered index filtered by a set of ids or by a LIKE pattern on its keys (a page walks only
// as far as it needs; the pattern's count walks every key, so it is left until asked for).

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
    /// The entries at ascending, disjoint runs of positions of an ordered index whose values
    /// match a LIKE pattern, in its order or the reverse: a page walks only as far as that
    /// page, testing keys in place; the count tests every key of the runs.
    case matching(OrderedIndex, [Range<Int>], LikePattern, descending: Bool)

    /// Every entry of an ordered index.
    package static func all(_ index: OrderedIndex, descending: Bool) -> ResultOrder {
        .index(index, positions: 0..<index.count, descending: descending)
    }

    /// The number of results.
    ///
    /// - Complexity: O(1) (O(runs)), except for `matching`: a test of every key in its runs.
    package var count: Int {
        if let knownCount { return knownCount }
        var count = 0
        if case .matching(let index, let runs, let pattern, _) = self {
            Self.visitMatches(index, runs, pattern, descending: false) { _ in
                count += 1
                return true
            }
        }
        return count
    }

    /// The number of results when it costs no walk; nil for `matching`.
    package var knownCount: Int? {
        switch self {
        case .index(_, let positions, _): positions.count
        case .runs(_, let runs, _): runs.reduce(0) { $0 + $1.count }
        case .ids(let ids): ids.count
        case .filtered(_, _, let count, _): count
        case .matching: nil
        }
    }

    /// The ids at result positions `start ..< start + length` (fewer at the end).
    ///
    /// - Complexity: O(log n + length) for an index; for `matching`, the keys up to the last
    ///   one returned.
    package func ids(from start: Int, length: Int) -> [Int64] {
        guard start >= 0, length > 0 else { return [] }
        if case .matching(let index, let runs, let pattern, let descending) = self {
            var ids: [Int64] = []
            var skipped = 0
            Self.visitMatches(index, runs, pattern, descending: descending) { id in
                if skipped < start {
                    skipped += 1
                } else {
                    ids.append(id)
                }
                return ids.count < length
            }
            return ids
        }
        guard start < count else { return [] }
        let wanted = min(length, count - start)
        switch self {
        case .index(let index, let positions, let descending):
            var ids: [Int64] = []
            ids.reserveCapacity(wanted)
            // Descending visits count from the end of the index.
            let first = descending ? index.count - positions.upperBound + start : positions.lowerBound + start
            Self.appendIDs(index, from: first, length: wanted, descending: descending, to: &ids)
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
                let first = descending ? index.count - run.upperBound + skip : run.lowerBound + skip
                Self.appendIDs(index, from: first, length: min(wanted - ids.count, run.count - skip), descending: descending, to: &ids)
                skip = 0
            }
            return ids
        case .ids(let ids):
            return Array(ids[start..<start + wanted])
        case .filtered(let index, let members, _, let descending):
            var ids: [Int64] = []
            ids.reserveCapacity(wanted)
            var skipped = 0
            index.forEachBorrowed(descending: descending) { entry in
                guard members.contains(entry.id) else { return true }
                if skipped < start {
                    skipped += 1
                } else {
                    ids.append(entry.id)
                }
                return ids.count < wanted
            }
            return ids
        case .matching:
            return []  // Answered above.
        }
    }

    /// Every id, in result order.
    package var allIDs: [Int64] {
        if let knownCount { return ids(from: 0, length: knownCount) }
        return ids(from: 0, length: .max)
    }

    /// Visits the ids of the entries in `runs` of `index` whose values match `pattern`, in
    /// index order or the reverse, until `body` returns false. Keys are tested in place, a
    /// leaf's run of them at a time.
    private static func visitMatches(
        _ index: OrderedIndex, _ runs: [Range<Int>], _ pattern: LikePattern, descending: Bool,
        _ body: (Int64) -> Bool
    ) {
        pattern.withMatcher { matcher in
            // Whether `slot` of `leaf` matches: text tested in place, numbers through their
            // SQLite text.
            func matches(_ leaf: BorrowedIndexLeaf, _ slot: Int) -> Bool {
                if let text = leaf.textBytes(at: slot) { return matcher.matches(text) }
                return pattern.matches(leaf.entry(at: slot))
            }
            for run in descending ? runs.reversed() : runs where !run.isEmpty {
                var left = run.count
                var going = true
                // Descending visits count from the end of the index.
                index.forEachLeafRun(from: descending ? index.count - run.upperBound : run.lowerBound, descending: descending) {
                    leaf, slots in
                    let taken = min(left, slots.count)
                    left -= taken
                    let covered = descending ? slots.upperBound - taken..<slots.upperBound : slots.lowerBound..<slots.lowerBound + taken
                    if var found = matcher.matchingSlots(in: leaf, covered) {
                        // The run's matches at once, as bits: lowest first, or highest first.
                        while found != 0 {
                            let bit = descending ? 63 - found.leadingZeroBitCount : found.trailingZeroBitCount
                            found &= ~(1 &<< UInt64(bit))
                            going = body(leaf.id(at: covered.lowerBound + bit))
                            if !going { return false }
                        }
                    } else if descending {
                        var slot = slots.upperBound
                        let stop = slots.upperBound - taken
                        while slot > stop {
                            slot -= 1
                            if matches(leaf, slot) {
                                going = body(leaf.id(at: slot))
                                if !going { return false }
                            }
                        }
                    } else {
                        var slot = slots.lowerBound
                        let stop = slots.lowerBound + taken
                        while slot < stop {
                            if matches(leaf, slot) {
                                going = body(leaf.id(at: slot))
                                if !going { return false }
                            }
                            slot += 1
                        }
                    }
                    return left > 0
                }
                guard going else { return }
            }
        }
    }

    /// Appends the ids at `length` positions of `index` from `start` (descending: counted from
    /// the end) to `ids`, read in place.
    private static func appendIDs(
        _ index: OrderedIndex, from start: Int, length: Int, descending: Bool, to ids: inout [Int64]
    ) {
        var left = length
        guard left > 0 else { return }
        index.forEachLeafRun(from: start, descending: descending) { leaf, slots in
            let taken = min(left, slots.count)
            left -= taken
            if descending {
                for slot in stride(from: slots.upperBound - 1, through: slots.upperBound - taken, by: -1) {
                    ids.append(leaf.id(at: slot))
                }
            } else {
                for slot in slots.lowerBound..<slots.lowerBound + taken { ids.append(leaf.id(at: slot)) }
            }
            return left > 0
        }
    }
}
