// Runs a bound Smart SQL statement: joins its soups table by table (each found through its
// access path), filters, groups and aggregates, removes duplicates, sorts, and pages. Rows
// stream to the caller when nothing needs the whole result first (no sort, group or
// DISTINCT, or a sort that an ordered index already gives).

import StockpotIndex
import StockpotJSON

/// Executes bound statements over one frame of rows. Not thread-safe: one per run.
final class SQLExecutor {
    let frame: RowFrame
    /// The soup of each row slot, this run.
    let soups: [any SQLSoup]
    /// The values of the `?` placeholders, in order.
    let arguments: [SQLValue]
    /// The run's time and memory budget, spent as rows are visited and held.
    let meter: SQLBudgetMeter
    /// Tells the column cache what documents the statement read (see
    /// ``SQLTableLoader/reportDemand()``). Call once the statement is done.
    func reportDemand() {
        for loader in loaders { loader?.reportDemand() }
    }

    /// Row loaders by table slot, made on first use. Read for every row; unchecked as the
    /// frame's properties are (see ``RowFrame``): one executor per run on one thread.
    @exclusivity(unchecked) private var loaders: [SQLTableLoader?]
    /// Parsed match expressions' results by slot, path and text.
    private var matchCache: [MatchCacheKey: Set<Int64>] = [:]
    /// Hash tables of unindexed fields by slot and field.
    private var hashTables: [HashTableKey: [SQLValue: [Int64]]] = [:]
    /// The values of uncorrelated subqueries, after their first run.
    private var subqueryLists: [ObjectIdentifier: SQLInList] = [:]
    /// By slot: the ordered index of its access path, once looked up (unchecked as above).
    @exclusivity(unchecked) private var accessIndexes: [OrderedIndex?]
    /// By slot: the registered-kind indexes on its access path's spec, once looked up
    /// (unchecked as above).
    @exclusivity(unchecked) private var accessKindLists: [[any PathIndex]?]

    private struct MatchCacheKey: Hashable {
        var slot: Int
        var path: String?
        var text: String
    }

    private struct HashTableKey: Hashable {
        var slot: Int
        var field: Int
    }

    /// An executor over `soups` (one per row slot of `frame`) with these placeholder values.
    init(frame: RowFrame, soups: [any SQLSoup], arguments: [SQLValue], budget: SQLBudget = SQLBudget()) {
        self.frame = frame
        self.soups = soups
        self.arguments = arguments
        meter = SQLBudgetMeter(budget)
        loaders = Array(repeating: nil, count: frame.ids.count)
        accessIndexes = Array(repeating: nil, count: frame.ids.count)
        accessKindLists = Array(repeating: nil, count: frame.ids.count)
    }

    /// The soup `table`'s rows come from.
    @inline(__always)
    func soup(_ table: BoundTable) -> any SQLSoup {
        soups[table.slot]
    }

    /// The ordered index of `field` that `table`'s access path walks (looked up once per run).
    func accessIndex(_ table: BoundTable, _ field: SQLField) throws(QueryError) -> OrderedIndex {
        if let index = accessIndexes[table.slot] { return index }
        guard let index = SQLAccessPlanner.orderedIndex(of: field, in: soup(table), schema: table.schema) else {
            throw QueryError(.internal, "Soup \"\(table.schema.name)\" has no ordered index for a planned range.")
        }
        accessIndexes[table.slot] = index
        return index
    }

    /// The registered-kind indexes (docs/indexes.md) on the spec of `field`, the field of
    /// `table`'s access path (none for a field no spec indexes).
    func accessKinds(_ table: BoundTable, _ field: SQLField) -> [any PathIndex] {
        if let kinds = accessKindLists[table.slot] { return kinds }
        let spec = SQLAccessPlanner.orderedIndexSpec(of: field, in: table.schema) ?? -1
        let kinds = spec >= 0 ? soup(table).registeredIndexes(ofSpec: spec) : []
        accessKindLists[table.slot] = kinds
        return kinds
    }

    /// Runs `select`, calling `emit` with each result row until it returns false.
    func run(_ select: BoundSelect, _ emit: ([SQLValue]) throws(QueryError) -> Bool) throws(QueryError) {
        let plan = select.plan
        try chooseLoader(select, plan)
        if !select.isAggregate, !select.distinct, select.orderBy.isEmpty || plan.orderIsGiven {
            try stream(select, plan, emit)
            return
        }
        var rows: [ResultRow]
        if let keep = Self.rowsToKeep(select) {
            // ORDER BY ... LIMIT: only the rows that can still be in the result are held.
            rows = try topRows(select, plan, keep: keep)
        } else {
            rows = select.isAggregate ? try aggregatedRows(select, plan) : try collectedRows(select, plan)
        }
        if select.distinct {
            var seen = Set<[SQLValue]>()
            rows = rows.filter { seen.insert($0.values).inserted }
        }
        if !select.orderBy.isEmpty {
            let descending = select.orderBy.map(\.descending)
            rows.sort { a, b in
                for (i, isDescending) in descending.enumerated() {
                    let order = SQLValue.compare(a.sortKeys[i], b.sortKeys[i])
                    if order != 0 { return isDescending ? order > 0 : order < 0 }
                }
                return false
            }
        }
        var skipped = 0
        var emitted = 0
        for row in rows {
            if skipped < select.offset {
                skipped += 1
                continue
            }
            if let limit = select.limit, emitted >= limit { return }
            emitted += 1
            guard try emit(row.values) else { return }
        }
    }

    /// A result row with the values it sorts by.
    struct ResultRow {
        var values: [SQLValue]
        var sortKeys: [SQLValue]

        /// What holding the row costs the memory budget.
        var heldBytes: Int {
            SQLBudgetMeter.bytes(of: values) + SQLBudgetMeter.bytes(of: sortKeys)
        }
    }

    /// Rows straight to `emit`, in join order, offset and limit applied as they pass.
    private func stream(
        _ select: BoundSelect, _ plan: SQLJoinPlan, _ emit: ([SQLValue]) throws(QueryError) -> Bool
    ) throws(QueryError) {
        if select.limit == 0 { return }
        var skipped = 0
        var emitted = 0
        // One row buffer for the whole stream (a caller that keeps a row gets its own copy).
        var values: [SQLValue] = []
        values.reserveCapacity(select.columns.count)
        try forEachJoinedRow(select, plan) { () throws(QueryError) -> Bool in
            if skipped < select.offset {
                skipped += 1
                return true
            }
            values.removeAll(keepingCapacity: true)
            for column in select.columns { values.append(try evaluate(column)) }
            emitted += 1
            guard try emit(values) else { return false }
            return select.limit.map { emitted < $0 } ?? true
        }
    }

    /// Every joined row's result values and sort keys.
    private func collectedRows(_ select: BoundSelect, _ plan: SQLJoinPlan) throws(QueryError) -> [ResultRow] {
        var rows: [ResultRow] = []
        try forEachJoinedRow(select, plan) { () throws(QueryError) -> Bool in
            let row = try resultRow(select)
            try meter.hold(row.heldBytes)
            rows.append(row)
            return true
        }
        return rows
    }

    /// The result values and sort keys for the frame's current rows.
    func resultRow(_ select: BoundSelect) throws(QueryError) -> ResultRow {
        var values: [SQLValue] = []
        values.reserveCapacity(select.columns.count)
        for column in select.columns { values.append(try evaluate(column)) }
        var keys: [SQLValue] = []
        keys.reserveCapacity(select.orderBy.count)
        for term in select.orderBy { keys.append(try evaluate(term.expression)) }
        return ResultRow(values: values, sortKeys: keys)
    }

    // MARK: Rows of tables

    /// Reads the first soup's rows off its indexes when the statement visits enough of them
    /// (and every field it reads is indexed); otherwise rows come from documents.
    private func chooseLoader(_ select: BoundSelect, _ plan: SQLJoinPlan) throws(QueryError) {
        guard let table = select.tables.first, loaders[table.slot] == nil else { return }
        // Streaming with a LIMIT may stop long before visiting them all.
        if plan.orderIsGiven || (!select.isAggregate && !select.distinct && select.orderBy.isEmpty), select.limit != nil { return }
        let soup = soup(table)
        guard SQLColumnVectors.indexes(of: table, in: soup) != nil else { return }
        let rows: Int
        switch plan.levels[0].access {
        case .scan: rows = soup.entryIDs.count
        case .indexRange(let field, let bounds) where plan.levels[0].access.isConstant:
            rows = try positions(in: try accessIndex(table, field), bounds)?.count ?? 0
        default: return
        }
        if SQLColumnVectors.pays(for: table, in: soup, rows: rows) {
            // Walking an index of a field the soup reads supplies that field's values.
            var walked: Int?
            if case .indexRange(let field, _) = plan.levels[0].access { walked = table.fields.firstIndex(of: field) }
            loaders[table.slot] = SQLTableLoader(table: table, soup: soup, fromIndexes: true, suppliedField: walked)
        }
    }

    /// The loader of a table's rows.
    func loader(_ table: BoundTable) -> SQLTableLoader {
        if let loader = loaders[table.slot] { return loader }
        let loader = SQLTableLoader(table: table, soup: soup(table))
        loaders[table.slot] = loader
        return loader
    }

    /// Puts entry `id` of `table` in the frame; false when the entry does not exist.
    func setRow(_ table: BoundTable, id: Int64, known: (field: Int, value: IndexValue)? = nil) throws(QueryError) -> Bool {
        let loader = loader(table)
        guard try loader.load(id, known: known, into: &frame.values[table.slot]) else { return false }
        frame.ids[table.slot] = id
        return true
    }

    /// Puts the null row of a LEFT JOIN without a partner in the frame.
    func setNullRow(_ table: BoundTable) {
        frame.ids[table.slot] = nil
        frame.values[table.slot] = []
    }

    /// The ids a match expression selects in the soup of `slot` (cached by text).
    func matchingIDs(_ text: String, slot: Int, path: String?) throws(QueryError) -> Set<Int64> {
        let key = MatchCacheKey(slot: slot, path: path, text: text)
        if let ids = matchCache[key] { return ids }
        let soup = soups[slot]
        let expression = try soup.matchExpression(text, restrictedTo: path)
        let ids = Set(expression.matchingIDs(in: try soup.requiredFullTextIndex()))
        matchCache[key] = ids
        return ids
    }

    /// The hash table of one unindexed field of a table: value → ids (nulls left out).
    func hashTable(_ table: BoundTable, field: Int) throws(QueryError) -> [SQLValue: [Int64]] {
        let key = HashTableKey(slot: table.slot, field: field)
        if let hashed = hashTables[key] { return hashed }
        var hashed: [SQLValue: [Int64]] = [:]
        let loader = loader(table)
        var failure: QueryError?
        var values: [SQLValue] = []
        soup(table).entryIDs.forEach { entry in
            do throws(QueryError) {
                try meter.tick()
                guard try loader.load(entry.id, into: &values) else { return true }
                if values[field] != .null {
                    try meter.hold(SQLBudgetMeter.bytes(of: values[field]) + 8)
                    hashed[values[field], default: []].append(entry.id)
                }
                return true
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        hashTables[key] = hashed
        return hashed
    }

    /// The values of a subquery's only column, prepared for `IN` (an uncorrelated one is run
    /// once).
    func subqueryList(_ subquery: BoundSubquery, leftAffinity: SQLAffinity) throws(QueryError) -> SQLInList {
        if !subquery.isCorrelated, let list = subqueryLists[ObjectIdentifier(subquery)] { return list }
        var values: [SQLValue] = []
        try run(subquery.select) { row throws(QueryError) -> Bool in
            try meter.hold(SQLBudgetMeter.bytes(of: row[0]))
            values.append(row[0])
            return true
        }
        let affinity = SQLAffinity.inSubquery(left: leftAffinity, column: subquery.select.columns[0].affinity)
        let list = SQLInList(values, affinity: affinity)
        if !subquery.isCorrelated { subqueryLists[ObjectIdentifier(subquery)] = list }
        return list
    }
}
