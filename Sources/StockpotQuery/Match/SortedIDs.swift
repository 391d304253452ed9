// Set operations on ascending, distinct entry-id lists by linear merges: what AND, OR and NOT
// of a match expression compute.

/// Merges of ascending, distinct `Int64` lists; every result is ascending and distinct.
enum SortedIDs {
    /// The ids in both lists. Walks the shorter list and gallops through the longer one.
    ///
    /// - Complexity: O(m log(n / m)) for lists of m ≤ n ids.
    static func intersection(_ a: [Int64], _ b: [Int64]) -> [Int64] {
        let (small, large) = a.count <= b.count ? (a, b) : (b, a)
        var result: [Int64] = []
        result.reserveCapacity(small.count)
        var low = 0
        for id in small {
            low = firstIndex(in: large, atLeast: id, from: low)
            if low == large.count { break }
            if large[low] == id { result.append(id) }
        }
        return result
    }

    /// The ids in every list, the smallest lists first; empty for no lists.
    static func intersection(_ lists: [[Int64]]) -> [Int64] {
        let ordered = lists.sorted { $0.count < $1.count }
        guard var result = ordered.first else { return [] }
        for list in ordered.dropFirst() {
            if result.isEmpty { break }
            result = intersection(result, list)
        }
        return result
    }

    /// The ids in either list.
    ///
    /// - Complexity: O(m + n).
    static func union(_ a: [Int64], _ b: [Int64]) -> [Int64] {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        var result: [Int64] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if a[i] < b[j] {
                result.append(a[i])
                i += 1
            } else if b[j] < a[i] {
                result.append(b[j])
                j += 1
            } else {
                result.append(a[i])
                i += 1
                j += 1
            }
        }
        result += a[i...]
        result += b[j...]
        return result
    }

    /// The ids in any list: pairwise merges, the two shortest first.
    static func union(_ lists: [[Int64]]) -> [Int64] {
        var pending = lists.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
        while pending.count > 1 {
            let merged = union(pending.removeLast(), pending.removeLast())
            let slot = pending.firstIndex { $0.count <= merged.count } ?? pending.count
            pending.insert(merged, at: slot)
        }
        return pending.first ?? []
    }

    /// The ids in `a` and not in `b`.
    ///
    /// - Complexity: O(m log(n / m)) when `a` is the shorter, else O(m + n).
    static func subtracting(_ a: [Int64], _ b: [Int64]) -> [Int64] {
        guard !a.isEmpty, !b.isEmpty else { return a }
        var result: [Int64] = []
        result.reserveCapacity(a.count)
        var low = 0
        for id in a {
            low = firstIndex(in: b, atLeast: id, from: low)
            if low == b.count || b[low] != id { result.append(id) }
        }
        return result
    }

    /// The first index at or after `start` whose id is at least `id`: gallop, then binary search.
    static func firstIndex(in list: [Int64], atLeast id: Int64, from start: Int) -> Int {
        var low = start
        var step = 1
        var high = start
        while high < list.count, list[high] < id {
            low = high + 1
            high += step
            step <<= 1
        }
        high = min(high, list.count)
        while low < high {
            let middle = (low + high) >> 1
            if list[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
