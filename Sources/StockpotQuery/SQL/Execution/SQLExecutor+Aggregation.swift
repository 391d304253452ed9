// GROUP BY and aggregates: rows are grouped by their GROUP BY values, each group feeds its
// aggregates' accumulators, and the group's last row stands for it in the select list (as
// SQLite's bare columns do). A statement with aggregates and no GROUP BY has one group, even
// over no rows.

extension SQLExecutor {
    /// One group being accumulated.
    private struct Group {
        var accumulators: [SQLAccumulator]
        /// The group's last row, per slot of the statement's soups.
        var ids: [Int64?]
        var values: [[SQLValue]]
    }

    /// The result rows of an aggregate statement, one per group that passes HAVING.
    func aggregatedRows(_ select: BoundSelect, _ plan: SQLJoinPlan) throws(QueryError) -> [ResultRow] {
        let slots = select.tables.map(\.slot)
        var groupNumbers: [[SQLValue]: Int] = [:]
        var groups: [Group] = []
        try forEachJoinedRow(select, plan) { () throws(QueryError) -> Bool in
            var key: [SQLValue] = []
            key.reserveCapacity(select.groupBy.count)
            for term in select.groupBy { key.append(try evaluate(term)) }
            let number: Int
            if let existing = groupNumbers[key] {
                number = existing
            } else {
                number = groups.count
                groupNumbers[key] = number
                groups.append(Group(
                    accumulators: select.aggregates.map { SQLAccumulator($0.function, distinct: $0.distinct) },
                    ids: [], values: []))
            }
            for (i, aggregate) in select.aggregates.enumerated() {
                let value = try aggregate.argument.map { e throws(QueryError) in try evaluate(e) } ?? .null
                groups[number].accumulators[i].add(value)
            }
            groups[number].ids = slots.map { frame.ids[$0] }
            groups[number].values = slots.map { frame.values[$0] }
            return true
        }
        if groups.isEmpty, select.groupBy.isEmpty {
            groups.append(Group(
                accumulators: select.aggregates.map { SQLAccumulator($0.function, distinct: $0.distinct) },
                ids: slots.map { _ in nil }, values: slots.map { _ in [] }))
        }
        var rows: [ResultRow] = []
        rows.reserveCapacity(groups.count)
        for group in groups {
            for (i, slot) in slots.enumerated() {
                frame.ids[slot] = group.ids[i]
                frame.values[slot] = group.values[i]
            }
            for (i, aggregate) in select.aggregates.enumerated() {
                do {
                    frame.aggregateValues[aggregate.slot] = try group.accumulators[i].result()
                } catch {
                    throw .invalid(error.message)
                }
            }
            if let having = select.having, !(try isTrue(having)) { continue }
            rows.append(try resultRow(select))
        }
        return rows
    }
}
