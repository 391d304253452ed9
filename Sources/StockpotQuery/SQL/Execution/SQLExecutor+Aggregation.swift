// GROUP BY and aggregates: rows are grouped by their GROUP BY values, each group feeds its
// aggregates' accumulators, and the group's last row stands for it in the select list (as
// SQLite's bare columns do). When the rows arrive in the order of the one GROUP BY value (an
// ordered index gives it), each group is finished when the value changes, without hashing.
// A statement with aggregates and no GROUP BY has one group, even over no rows.

extension SQLExecutor {
    /// One group being accumulated.
    private struct Group {
        var accumulators: [SQLAccumulator]
        /// The ids of the group's last row, per soup of the statement (nil: a null row).
        var lastIDs: [Int64?]
    }

    /// The result rows of an aggregate statement, one per group that passes HAVING.
    func aggregatedRows(_ select: BoundSelect, _ plan: SQLJoinPlan) throws(QueryError) -> [ResultRow] {
        if let count = try countWithoutRows(select, plan) {
            for aggregate in select.aggregates { frame.aggregateValues[aggregate.slot] = .integer(Int64(count)) }
            if let having = select.having, !(try isTrue(having)) { return [] }
            return [try resultRow(select)]
        }
        let slots = select.tables.map(\.slot)
        func newGroup() -> Group {
            Group(accumulators: select.aggregates.map { SQLAccumulator($0.function, distinct: $0.distinct) }, lastIDs: [])
        }
        var rows: [ResultRow] = []
        var groupNumbers: [[SQLValue]: Int] = [:]
        var groups: [Group] = []
        // Contiguous groups: the current one and its key.
        var current: (key: SQLValue, group: Group)?
        try forEachJoinedRow(select, plan) { () throws(QueryError) -> Bool in
            if plan.groupsAreContiguous {
                let key = try evaluate(select.groupBy[0])
                if let (currentKey, group) = current, SQLValue.compare(currentKey, key) != 0 {
                    // Finishing puts the group's last row in the frame; this row comes back after.
                    let rowIDs = slots.map { frame.ids[$0] }
                    if let row = try finish(group, select) {
                        try meter.hold(row.heldBytes)
                        rows.append(row)
                    }
                    try restore(rowIDs, select)
                    current = nil
                }
                if current == nil { current = (key, newGroup()) }
                try accumulate(&current!.group, select, slots)
                return true
            }
            var key: [SQLValue] = []
            key.reserveCapacity(select.groupBy.count)
            for term in select.groupBy { key.append(try evaluate(term)) }
            let number: Int
            if let existing = groupNumbers[key] {
                number = existing
            } else {
                number = groups.count
                // The key twice (the dictionary's and the lookup's), the accumulators, the ids.
                try meter.hold(2 * SQLBudgetMeter.bytes(of: key) + 32 * (select.aggregates.count + slots.count))
                groupNumbers[key] = number
                groups.append(newGroup())
            }
            try accumulate(&groups[number], select, slots)
            return true
        }
        if let (_, group) = current {
            if let row = try finish(group, select) { rows.append(row) }
        }
        if rows.isEmpty, groups.isEmpty, select.groupBy.isEmpty {
            groups.append(Group(accumulators: newGroup().accumulators, lastIDs: slots.map { _ in nil }))
        }
        rows.reserveCapacity(rows.count + groups.count)
        for group in groups {
            if let row = try finish(group, select) { rows.append(row) }
        }
        return rows
    }

    /// Feeds the frame's current row to a group.
    private func accumulate(_ group: inout Group, _ select: BoundSelect, _ slots: [Int]) throws(QueryError) {
        for (i, aggregate) in select.aggregates.enumerated() {
            let value = try aggregate.argument.map { e throws(QueryError) in try evaluate(e) } ?? .null
            let separator = try aggregate.separator.map { e throws(QueryError) in try evaluate(e) }
            let heldBefore = group.accumulators[i].heldTextBytes
            do {
                try group.accumulators[i].add(value, separator: separator)
            } catch {
                throw .invalid(error.message)
            }
            // group_concat's growing text is held until the group is finished.
            let grown = group.accumulators[i].heldTextBytes - heldBefore
            if grown > 0 { try meter.hold(grown) }
        }
        if group.lastIDs.count != slots.count {
            group.lastIDs = slots.map { frame.ids[$0] }
        } else {
            for (i, slot) in slots.enumerated() { group.lastIDs[i] = frame.ids[slot] }
        }
    }

    /// Puts the rows with these ids (nil: a null row) back in the frame, per soup.
    private func restore(_ ids: [Int64?], _ select: BoundSelect) throws(QueryError) {
        for (i, table) in select.tables.enumerated() {
            if let id = ids[i] {
                if frame.ids[table.slot] != id { _ = try setRow(table, id: id) }
            } else {
                setNullRow(table)
            }
        }
    }

    /// A group's result row, with its last row back in the frame; nil when HAVING drops it.
    private func finish(_ group: Group, _ select: BoundSelect) throws(QueryError) -> ResultRow? {
        try restore(group.lastIDs, select)
        for (i, aggregate) in select.aggregates.enumerated() {
            do {
                frame.aggregateValues[aggregate.slot] = try group.accumulators[i].result()
            } catch {
                throw .invalid(error.message)
            }
        }
        if let having = select.having, !(try isTrue(having)) { return nil }
        return try resultRow(select)
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
            return soup(table).entryIDs.count
        case .indexRange(let field, let bounds):
            return try positions(in: try accessIndex(table, field), bounds)?.count ?? 0
        case .match(let path, let key):
            let soup = soup(table)
            let value = try evaluate(key)
            guard case .text(let text) = value else { return value == .null ? 0 : nil }
            // Straight from posting-list lengths when the expression is one term.
            return try soup.matchExpression(text, restrictedTo: path).count(in: try soup.requiredFullTextIndex())
        case .hashLookup:
            return nil
        }
    }
}
