// ORDER BY ... LIMIT without holding every row: a bounded max-heap keeps the OFFSET + LIMIT
// rows that sort first, ties in the order the rows were visited (as the full sort keeps
// them), so that memory is O(OFFSET + LIMIT) whatever the number of rows joined.

extension SQLExecutor {
    /// How many rows a sorted, limited statement needs to hold (OFFSET + LIMIT); nil when it
    /// must hold them all (no LIMIT, aggregates, DISTINCT, or an order an index gives).
    static func rowsToKeep(_ select: BoundSelect) -> Int? {
        guard !select.isAggregate, !select.distinct, !select.orderBy.isEmpty, !select.plan.orderIsGiven,
            let limit = select.limit
        else { return nil }
        let (keep, overflow) = select.offset.addingReportingOverflow(limit)
        return overflow ? nil : keep
    }

    /// The `keep` rows that sort first, in no particular order (the caller sorts them).
    func topRows(_ select: BoundSelect, _ plan: SQLJoinPlan, keep: Int) throws(QueryError) -> [ResultRow] {
        guard keep > 0 else { return [] }
        let descending = select.orderBy.map(\.descending)
        var heap = TopRowHeap(capacity: keep, descending: descending)
        var sequence = 0
        try forEachJoinedRow(select, plan) { () throws(QueryError) -> Bool in
            let row = try resultRow(select)
            defer { sequence += 1 }
            if heap.count < keep {
                try meter.hold(row.heldBytes)
                heap.push(row, sequence: sequence)
            } else if heap.sortsBeforeLast(row, sequence: sequence) {
                meter.release(heap.last.heldBytes)
                try meter.hold(row.heldBytes)
                heap.replaceLast(row, sequence: sequence)
            }
            return true
        }
        return heap.rowsInOrder()
    }
}
