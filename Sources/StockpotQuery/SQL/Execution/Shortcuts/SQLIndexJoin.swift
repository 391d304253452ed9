// A compiled pipeline for the simplest equi-join: two soups, the first found by a run of one
// of its ordered indexes (or a scan), the second by one equality lookup in one of its ordered
// indexes per row of the first (`{b:x} = {a:y}`), no other condition, result columns that
// are plain fields. Once every value it reads is in the column cache it walks the indexes
// and builds each row straight from the columns: no executor frame, loader, closure per level
// or expression evaluation per row. Until then the executor runs the statement (reading
// documents, which gets the columns cached).

import StockpotIndex
import StockpotJSON

/// An index-driven equi-join that answers a whole statement. Immutable; shared by every run
/// of a prepared statement (each run takes the soups' indexes and columns of that run).
final class SQLIndexJoin {
    /// Where one value (a result column, or the lookup key) comes from.
    enum Source {
        /// The entry id of the first (0) or second (1) soup's row.
        case entryID(Int)
        /// The value of the first soup's index entry being walked.
        case walked
        /// The value of the second soup's index entry the lookup found.
        case probed
        /// Column `position` of ``columnFields``, read by the entry id of its soup's row.
        case column(Int)
    }

    /// The first and second soups of FROM.
    let tables: [BoundTable]
    /// The first soup's walked field (`_soupEntryId` for a scan) and the bounds on it.
    let outerField: SQLField
    let outerBounds: [IndexBound]
    /// The second soup's field looked up, and the affinity applied to the key first.
    let innerField: SQLField
    let conversion: SQLAffinity?
    /// Where the lookup key comes from (a value of the first soup's row).
    let key: Source
    /// Per result column.
    let sources: [Source]
    /// The fields read from cached columns: (0 or 1 for the soup, field index).
    let columnFields: [(table: Int, field: Int)]
    /// Whether the key or a result column is the walked value.
    let readsWalked: Bool
    let offset: Int
    let limit: Int?

    /// The join that answers `select`, when it has the shape: two soups joined inner, no
    /// GROUP BY, aggregate, DISTINCT, HAVING or ORDER BY; the first soup found by a scan or a
    /// range of an ordered index with constant bounds, the second by an equality of an
    /// ordered index with a field of the first; every condition answered by those two access
    /// paths; result columns that are plain fields of the two soups, each the entry id or a
    /// value an ordered index holds exactly. Nil otherwise (the executor runs the statement).
    init?(_ select: BoundSelect) {
        guard select.tables.count == 2, select.joins.count == 1, select.joins[0].kind != .left, !select.isAggregate,
            !select.distinct, select.having == nil, select.groupBy.isEmpty, select.orderBy.isEmpty,
            select.plan.levels.count == 2
        else { return nil }
        let outerLevel = select.plan.levels[0], innerLevel = select.plan.levels[1]
        guard outerLevel.answersEverything, innerLevel.answersEverything, !outerLevel.isLeft, !innerLevel.isLeft,
            !outerLevel.descending, !innerLevel.descending, outerLevel.access.isConstant
        else { return nil }
        let outer = select.tables[0], inner = select.tables[1]
        switch outerLevel.access {
        case .scan:
            outerField = .entryID
            outerBounds = []
        case .indexRange(let field, let bounds):
            outerField = field
            outerBounds = bounds
        default:
            return nil
        }
        guard case .indexRange(let probed, let bounds) = innerLevel.access, bounds.count == 1, bounds[0].op == .equal,
            case .column(let keySlot, let keyField, _) = bounds[0].key, keySlot == outer.slot
        else { return nil }
        innerField = probed
        conversion = bounds[0].conversion
        let walkedField = outerField
        var columnFields: [(table: Int, field: Int)] = []
        // The value of field `field` of soup `table`: off the walked or probed entry when it
        // is that entry's field (as the executor takes it), else from a column.
        func source(table: Int, field: Int) -> Source? {
            let bound = table == 0 ? outer : inner
            let sqlField = bound.fields[field]
            if sqlField == .entryID { return .entryID(table) }
            if table == 0, sqlField == walkedField { return .walked }
            if table == 1, sqlField == probed { return .probed }
            guard SQLAccessPlanner.orderedIndexSpec(of: sqlField, in: bound.schema) != nil else { return nil }
            if let position = columnFields.firstIndex(where: { $0.table == table && $0.field == field }) {
                return .column(position)
            }
            columnFields.append((table, field))
            return .column(columnFields.count - 1)
        }
        guard let key = source(table: 0, field: keyField) else { return nil }
        var sources: [Source] = []
        for column in select.columns {
            guard case .column(let slot, let field, _) = column, slot == outer.slot || slot == inner.slot,
                let source = source(table: slot == outer.slot ? 0 : 1, field: field)
            else { return nil }
            sources.append(source)
        }
        tables = [outer, inner]
        self.key = key
        self.sources = sources
        self.columnFields = columnFields
        readsWalked = ([key] + sources).contains { if case .walked = $0 { true } else { false } }
        offset = select.offset
        limit = select.limit
    }

    /// Runs the join over `soups` (by row slot) when every column it reads is cached, calling
    /// `emit` with each row (one buffer, reused) until it returns false; false when a column
    /// is not cached (nothing was emitted: the caller runs the executor instead).
    func run<Value: SQLRowValue>(
        _ soups: [any SQLSoup], arguments: [SQLValue], as _: Value.Type, _ emit: ([Value]) throws(QueryError) -> Bool
    ) throws(QueryError) -> Bool {
        let outerSoup = soups[tables[0].slot], innerSoup = soups[tables[1].slot]
        var indexes: [OrderedIndex?] = []
        indexes.reserveCapacity(columnFields.count)
        for (table, field) in columnFields {
            let bound = tables[table]
            guard let index = SQLAccessPlanner.orderedIndex(of: bound.fields[field], in: table == 0 ? outerSoup : innerSoup, schema: bound.schema)
            else { return false }
            indexes.append(index)
        }
        guard let cached = SQLColumnCache.shared.cachedColumns(of: indexes) else { return false }
        var columns: [SQLColumn] = []
        columns.reserveCapacity(cached.count)
        for column in cached {
            guard let column else { return false }
            columns.append(column)
        }
        guard let outerIndex = SQLAccessPlanner.orderedIndex(of: outerField, in: outerSoup, schema: tables[0].schema),
            let innerIndex = SQLAccessPlanner.orderedIndex(of: innerField, in: innerSoup, schema: tables[1].schema)
        else {
            throw QueryError(.internal, "A soup has no ordered index for a planned join.")
        }
        if limit == 0 { return true }
        let lookup = SQLTextLookupCache.shared.cachedLookup(of: innerIndex)
        // The bounds are constants and placeholders (maybe subqueries): an executor of the
        // statement's soups evaluates them as the general path does.
        let bounds = SQLExecutor(frame: RowFrame(slots: soups.count, aggregates: 0), soups: soups, arguments: arguments)
        guard let range = try bounds.positions(in: outerIndex, outerBounds) else { return true }
        try withExtendedLifetime(columns) { () throws(QueryError) in
            try walk(outerIndex, range, innerIndex, lookup, columns.map { Unmanaged.passUnretained($0) }, emit)
        }
        return true
    }

    /// The join proper: each entry of `range` of the outer index, then each entry of the
    /// inner index equal to its key, in index order (as the executor's nested loop visits
    /// them): found through `lookup` (the inner index's texts hashed) for a text key when
    /// it is cached, else by a descent of the index.
    private func walk<Value: SQLRowValue>(
        _ outerIndex: OrderedIndex, _ range: Range<Int>, _ innerIndex: OrderedIndex, _ lookup: SQLTextLookup?,
        _ columns: [Unmanaged<SQLColumn>], _ emit: ([Value]) throws(QueryError) -> Bool
    ) throws(QueryError) {
        let state = WalkState<Value>(row: [Value](repeating: .sqlNull, count: sources.count), remaining: range.count)
        defer { SQLTextLookupCache.shared.recordDemand(state.textKeys, for: innerIndex) }
        outerIndex.forEachBorrowed(from: range.lowerBound) { outerEntry in
            state.remaining -= 1
            let outerID = outerEntry.id
            // The walked value, made once per outer row when read.
            let walked = readsWalked ? SQLValue(outerEntry.value) : .null
            func value(_ source: Source, innerID: Int64, probed: IndexValue) -> SQLValue {
                switch source {
                case .entryID(let table): return .integer(table == 0 ? outerID : innerID)
                case .walked: return walked
                case .probed: return SQLValue(probed)
                case .column(let position):
                    let id = columnFields[position].table == 0 ? outerID : innerID
                    return columns[position]._withUnsafeGuaranteedRef { $0.value(of: id) }
                }
            }
            guard let key = SQLExecutor.lookupKey(value(self.key, innerID: 0, probed: .null), conversion) else {
                return state.remaining > 0
            }
            let probe = key.indexValue
            // One row per partner; false to stop.
            func partner(_ innerID: Int64, _ probed: IndexValue) -> Bool {
                if state.skipped < offset {
                    state.skipped += 1
                    return true
                }
                for i in sources.indices {
                    state.row[i] = Value(value(sources[i], innerID: innerID, probed: probed))
                }
                state.emitted += 1
                do throws(QueryError) {
                    guard try emit(state.row) else {
                        state.stopped = true
                        return false
                    }
                } catch {
                    state.failure = error
                    state.stopped = true
                    return false
                }
                if let limit, state.emitted >= limit {
                    state.stopped = true
                    return false
                }
                return true
            }
            if case .text(var text) = key {
                if let lookup {
                    // A text key equals text entries only, each with the key's value (as the
                    // index's own lookup gives it).
                    text.withUTF8 { bytes in lookup.forEachID(equalTo: UnsafeRawBufferPointer(bytes)) { partner($0, probe) } }
                    return !state.stopped && state.remaining > 0
                }
                state.textKeys += 1
            }
            innerIndex.forEachEntry(equalTo: probe) { partner($0.id, $0.value) }
            return !state.stopped && state.remaining > 0
        }
        if let failure = state.failure { throw failure }
    }

    /// What a walk changes as it goes. A class: the walk's closures nest (outer entries,
    /// partners), and local variables they capture are checked for exclusive access at run
    /// time on every read and write (~900 instructions a row); these properties are not
    /// (`@exclusivity(unchecked)`: one walk, one thread, no overlapping access).
    private final class WalkState<Value> {
        /// The row buffer handed to the caller, reused.
        @exclusivity(unchecked) var row: [Value]
        /// Entries of the outer range not visited yet.
        @exclusivity(unchecked) var remaining: Int
        @exclusivity(unchecked) var skipped = 0
        @exclusivity(unchecked) var emitted = 0
        @exclusivity(unchecked) var stopped = false
        @exclusivity(unchecked) var failure: QueryError?
        /// Text keys looked up by descents, for the lookup cache's demand.
        @exclusivity(unchecked) var textKeys = 0

        init(row: [Value], remaining: Int) {
            self.row = row
            self.remaining = remaining
        }
    }
}
