// Walking the joined rows of one SELECT: a nested loop over its soups in FROM order, each
// soup's candidates found through its access path, LEFT JOINs null-extended when no row
// partners, and each condition checked as soon as the rows it reads are set.

import StockpotIndex
import StockpotJSON

extension SQLExecutor {
    /// Calls `body` with the frame holding each joined row that passes the conditions, until
    /// `body` returns false.
    func forEachJoinedRow(
        _ select: BoundSelect, _ plan: SQLJoinPlan, _ body: () throws(QueryError) -> Bool
    ) throws(QueryError) {
        guard !select.tables.isEmpty else {
            for condition in plan.constantConditions where !(try isTrue(condition)) { return }
            _ = try body()
            return
        }
        _ = try visit(level: 0, select, plan, body)
    }

    /// Joins the rows of level `level` and after; false when `body` asked to stop.
    private func visit(
        level: Int, _ select: BoundSelect, _ plan: SQLJoinPlan, _ body: () throws(QueryError) -> Bool
    ) throws(QueryError) -> Bool {
        if level == select.tables.count { return try body() }
        let table = select.tables[level]
        let step = plan.levels[level]
        var partnered = false
        var keepGoing = true
        try forEachCandidate(step, table) { id, known throws(QueryError) -> Bool in
            try meter.tick()
            guard try setRow(table, id: id, known: known) else { return true }
            for condition in step.joinConditions where !(try isTrue(condition)) { return true }
            partnered = true
            for condition in step.conditions where !(try isTrue(condition)) { return true }
            keepGoing = try visit(level: level + 1, select, plan, body)
            return keepGoing
        }
        guard keepGoing else { return false }
        if step.isLeft, !partnered {
            setNullRow(table)
            for condition in step.conditions where !(try isTrue(condition)) { return true }
            return try visit(level: level + 1, select, plan, body)
        }
        return true
    }

    /// Calls `body` with the id of each row the level's access path finds (and, walking an
    /// ordered index of a field the soup reads, that field's value), until it returns false.
    private func forEachCandidate(
        _ step: SQLJoinPlan.Level, _ table: BoundTable,
        _ body: (Int64, (field: Int, value: IndexValue)?) throws(QueryError) -> Bool
    ) throws(QueryError) {
        switch step.access {
        case .scan:
            let field = table.fields.firstIndex(of: .entryID)
            let entryIDs = soup(table).entryIDs
            try visitIndex(entryIDs, 0..<entryIDs.count, descending: false) { entry throws(QueryError) in
                try body(entry.id, field.map { ($0, entry.value) })
            }
        case .indexRange(let rangeField, let bounds) where bounds.count == 1 && bounds[0].op == .equal && !step.descending:
            // One equality (a lookup, often per outer row): one descent to the first equal
            // entry, then along the leaves while the value is equal.
            guard let key = try convertedKey(bounds[0].key, bounds[0].conversion)?.indexValue else { return }
            let index = try accessIndex(table, rangeField)
            // A registered index kind on the path, when it estimates itself cheaper than the
            // run of equal entries; its ascending ids are the run's order.
            if let ids = RegisteredKinds.answer(
                accessKinds(table, rangeField), .equal(key),
                orderedCost: OrderedIndexCost.of([index.lowerBound(key)..<index.upperBound(key)], in: index))
            {
                for id in ids where !(try body(id, nil)) { return }
                return
            }
            let field = table.fields.firstIndex(of: rangeField)
            var failure: QueryError?
            index.forEachEntry(equalTo: key) { entry in
                do throws(QueryError) {
                    return try body(entry.id, field.map { ($0, entry.value) })
                } catch {
                    failure = error
                    return false
                }
            }
            if let failure { throw failure }
        case .indexRange(let rangeField, let bounds):
            let index = try accessIndex(table, rangeField)
            guard let range = try positions(in: index, bounds) else { return }
            let field = table.fields.firstIndex(of: rangeField)
            try visitIndex(index, range, descending: step.descending) { entry throws(QueryError) in
                try body(entry.id, field.map { ($0, entry.value) })
            }
        case .hashLookup(let field, let key, let conversion):
            guard let value = try convertedKey(key, conversion) else { return }
            for id in try hashTable(table, field: field)[value] ?? [] where !(try body(id, nil)) { return }
        case .match(let path, let key):
            let value = try evaluate(key)
            guard case .text(let text) = value else {
                if value == .null { return }
                throw .invalid("MATCH needs a text expression, not \(value).")
            }
            for id in try matchingIDs(text, slot: table.slot, path: path).sorted() where !(try body(id, nil)) {
                return
            }
        }
    }

    /// Visits the entries at `range` of `index`, ascending or descending.
    private func visitIndex(
        _ index: OrderedIndex, _ range: Range<Int>, descending: Bool, _ body: (IndexEntry) throws(QueryError) -> Bool
    ) throws(QueryError) {
        guard !range.isEmpty else { return }
        var remaining = range.count
        var failure: QueryError?
        let start = descending ? index.count - range.upperBound : range.lowerBound
        index.forEach(from: start, descending: descending) { entry in
            do throws(QueryError) {
                remaining -= 1
                return try body(entry) && remaining > 0
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
    }

    /// The key of an index bound or hash lookup as the stored values compare with it; nil
    /// when it is null (which no comparison matches).
    private func convertedKey(_ key: BoundExpression, _ conversion: SQLAffinity?) throws(QueryError) -> SQLValue? {
        Self.lookupKey(try evaluate(key), conversion)
    }

    /// `value` as the stored values compare with it (`conversion` applied); nil when it is
    /// null. Shared with ``SQLIndexJoin``, which must find the same entries.
    static func lookupKey(_ value: SQLValue, _ conversion: SQLAffinity?) -> SQLValue? {
        var value = value
        if let conversion { value = value.applying(conversion) }
        return value == .null ? nil : value
    }

    /// The positions of `index` whose values satisfy every bound; nil when none can.
    ///
    /// Lower bounds (and equalities) are evaluated first, upper bounds only when entries are
    /// left after them, as SQLite's seek does: `k BETWEEN 5 AND f()` over an index with no
    /// value from 5 up never evaluates `f()` (nor fails in it).
    func positions(in index: OrderedIndex, _ bounds: [IndexBound]) throws(QueryError) -> Range<Int>? {
        var lower = 0
        var upper = index.count
        let isUpper: (IndexBound) -> Bool = { $0.op == .less || $0.op == .lessOrEqual }
        for bound in bounds.filter({ !isUpper($0) }) + bounds.filter(isUpper) {
            if isUpper(bound), lower >= upper { return nil }
            guard let key = try convertedKey(bound.key, bound.conversion) else { return nil }
            let value = key.indexValue
            // Nulls sort first and satisfy no comparison.
            var firstNonNull: Int { index.upperBound(.null) }
            switch bound.op {
            case .equal:
                lower = max(lower, index.lowerBound(value))
                upper = min(upper, index.upperBound(value))
            case .greater: lower = max(lower, index.upperBound(value))
            case .greaterOrEqual: lower = max(lower, index.lowerBound(value))
            case .less:
                lower = max(lower, firstNonNull)
                upper = min(upper, index.lowerBound(value))
            case .lessOrEqual:
                lower = max(lower, firstNonNull)
                upper = min(upper, index.upperBound(value))
            default: break
            }
        }
        return lower < upper ? lower..<upper : nil
    }
}
