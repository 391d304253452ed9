// The bounded heap of ORDER BY ... LIMIT (SQLExecutor+TopRows): result rows by their sort keys,
// then by the order they were visited, the row that sorts last at the root.

/// A max-heap of result rows by (sort keys, visit sequence): its root is the row that sorts
/// last among those held. Not thread-safe.
struct TopRowHeap {
    private var rows: [(row: SQLExecutor.ResultRow, sequence: Int)] = []
    private let descending: [Bool]

    init(capacity: Int, descending: [Bool]) {
        rows.reserveCapacity(min(capacity, 4096))
        self.descending = descending
    }

    var count: Int { rows.count }

    /// The held row that sorts last.
    var last: SQLExecutor.ResultRow { rows[0].row }

    /// Whether `row`, visited `sequence`th, sorts before the held row that sorts last.
    func sortsBeforeLast(_ row: SQLExecutor.ResultRow, sequence: Int) -> Bool {
        precedes((row, sequence), rows[0])
    }

    mutating func push(_ row: SQLExecutor.ResultRow, sequence: Int) {
        rows.append((row, sequence))
        var child = rows.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(rows[parent], rows[child]) else { break }
            rows.swapAt(parent, child)
            child = parent
        }
    }

    /// Replaces the row that sorts last.
    mutating func replaceLast(_ row: SQLExecutor.ResultRow, sequence: Int) {
        rows[0] = (row, sequence)
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var largest = parent
            if left < rows.count, precedes(rows[largest], rows[left]) { largest = left }
            if right < rows.count, precedes(rows[largest], rows[right]) { largest = right }
            if largest == parent { return }
            rows.swapAt(parent, largest)
            parent = largest
        }
    }

    /// The held rows in result order.
    func rowsInOrder() -> [SQLExecutor.ResultRow] {
        rows.sorted { precedes($0, $1) }.map(\.row)
    }

    /// The result order: the sort keys, each ascending or descending, then the visit order.
    private func precedes(
        _ a: (row: SQLExecutor.ResultRow, sequence: Int), _ b: (row: SQLExecutor.ResultRow, sequence: Int)
    ) -> Bool {
        for (i, isDescending) in descending.enumerated() {
            let order = SQLValue.compare(a.row.sortKeys[i], b.row.sortKeys[i])
            if order != 0 { return isDescending ? order > 0 : order < 0 }
        }
        return a.sequence < b.sequence
    }
}
