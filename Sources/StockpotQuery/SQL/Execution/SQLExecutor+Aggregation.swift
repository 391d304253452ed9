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
        if let count = try countWithoutRows(select, plan) {
            for aggregate in select.aggregates { frame.aggregateValues[aggregate.slot] = .integer(Int64(count)) }
            if let having = select.having, !(try isTrue(having)) { return [] }
            return [try resultRow(select)]
        }
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

extension SQLExecutor {
    /// `count(*)` over one soup whose conditions its access path answers exactly: the number
    /// of rows the path finds, without visiting them (an index range's length, a posting
    /// list's size). Nil when the statement is not of that shape.
    private func countWithoutRows(_ select: BoundSelect, _ plan: SQLJoinPlan) throws(QueryError) -> Int? {
        guard select.tables.count == 1, select.groupBy.isEmpty, !select.aggregates.isEmpty,
            select.aggregates.allSatisfy({ $0.function == .countRows }),
            let level = plan.levels.first, level.answersEverything
        else { return nil }
        // The select list may not show a value of the soup's rows (SQLite's bare columns).
        var read = Set<Int>()
        for column in select.columns { column.collectSlots(into: &read) }
        select.having?.collectSlots(into: &read)
        for term in select.orderBy { term.expression.collectSlots(into: &read) }
        guard !read.contains(select.tables[0].slot) else { return nil }
        let table = select.tables[0]
        switch level.access {
        case .scan:
            return table.soup.entryIDs.count
        case .indexRange(_, let index, let bounds):
            return try positions(in: index, bounds)?.count ?? 0
        case .match(let soup, let path, let key):
            let value = try evaluate(key)
            guard case .text(let text) = value else { return value == .null ? 0 : nil }
            // Straight from posting-list lengths when the expression is one term.
            return try soup.matchExpression(text, restrictedTo: path).count(in: try soup.requiredFullTextIndex())
        case .hashLookup:
            return nil
        }
    }
}
