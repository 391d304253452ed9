// A compiled pipeline for the simplest ordered statement: one soup, no condition, rows in the
// order of one of its ordered indexes, every result column a value an index holds. The index
// is walked from OFFSET and stops after LIMIT rows; the walked value comes off the index entry,
// the other values by entry id from their cached columns (or, until statements have read
// enough to cache them, from the documents). No executor, frame or expression is involved.

import StockpotIndex
import StockpotJSON
import Synchronization

/// An index walk that answers a whole statement. Immutable (but for its thread-safe column
/// memo); shared by every run of a prepared statement (each run takes the soup's indexes of
/// that run). A class, so that a run takes it from its statement with one retain instead of
/// copying its fields.
final class SQLIndexScan {
    /// Where one result column's value comes from.
    enum Source {
        /// The value of the index entry being visited.
        case walked
        /// The entry id.
        case entryID
        /// The value of field `field` of the table, read by entry id.
        case field(Int)
    }

    let table: BoundTable
    /// The field whose ordered index is walked.
    let walkedField: SQLField
    /// Its position among the table's fields.
    let walkedFieldIndex: Int
    let descending: Bool
    let offset: Int
    let limit: Int?
    /// Per result column.
    let sources: [Source]
    /// The table's fields read by id (neither walked nor the entry id), each with an ordered
    /// index, in field order.
    let fieldsByID: [Int]
    /// Whether a result column is the walked value and that value may be text, so that its
    /// column, once cached, saves a string made per row (numbers cost nothing to make; the
    /// entry-id index has no column).
    let readsWalked: Bool
    /// Their columns at the last run that found them cached.
    private let lastColumns = SQLColumnMemo()

    /// The scan that answers `select`, when it has the shape: one soup, no WHERE, GROUP BY,
    /// aggregate or DISTINCT, an ORDER BY that an ordered index gives (planned as a walk of
    /// that index, see ``SQLJoinPlan``), and result columns that are plain fields of the soup,
    /// each the entry id or a value an ordered index holds exactly. Nil otherwise (the
    /// executor runs the statement).
    init?(_ select: BoundSelect) {
        guard select.tables.count == 1, select.joins.isEmpty, select.whereCondition == nil, !select.isAggregate,
            !select.distinct, select.having == nil, select.groupBy.isEmpty, select.plan.orderIsGiven,
            select.plan.levels.count == 1, select.plan.levels[0].answersEverything,
            case .indexRange(let walked, let bounds) = select.plan.levels[0].access, bounds.isEmpty
        else { return nil }
        let table = select.tables[0]
        guard let walkedFieldIndex = table.fields.firstIndex(of: walked) else { return nil }
        var fieldsByID: [Int] = []
        for (number, field) in table.fields.enumerated() where number != walkedFieldIndex && field != .entryID {
            guard SQLAccessPlanner.orderedIndexSpec(of: field, in: table.schema) != nil else { return nil }
            fieldsByID.append(number)
        }
        var sources: [Source] = []
        for column in select.columns {
            guard case .column(let slot, let field, _) = column, slot == table.slot else { return nil }
            if field == walkedFieldIndex {
                sources.append(.walked)
            } else if table.fields[field] == .entryID {
                sources.append(.entryID)
            } else {
                sources.append(.field(field))
            }
        }
        self.table = table
        walkedField = walked
        self.walkedFieldIndex = walkedFieldIndex
        descending = select.plan.levels[0].descending
        offset = select.offset
        limit = select.limit
        self.sources = sources
        self.fieldsByID = fieldsByID
        let walkedHoldsText =
            SQLAccessPlanner.orderedIndexSpec(of: walked, in: table.schema).map { spec in
                spec >= 0 && (table.schema.types[spec] == .string || table.schema.types[spec] == .json1)
            } ?? false
        readsWalked = walkedHoldsText && sources.contains { if case .walked = $0 { true } else { false } }
    }

    /// Runs the scan over `soup`, calling `emit` with each row (one buffer, reused) until it
    /// returns false. The values are built as `Value`s directly (for a store's caller, the
    /// JSON values it receives).
    func run<Value: SQLRowValue>(
        _ soup: any SQLSoup, as _: Value.Type, _ emit: ([Value]) throws(QueryError) -> Bool
    ) throws(QueryError) {
        if limit == 0 { return }
        guard let index = SQLAccessPlanner.orderedIndex(of: walkedField, in: soup, schema: table.schema) else {
            throw QueryError(.internal, "Soup \"\(table.schema.name)\" has no ordered index for a planned walk.")
        }
        guard offset < index.count else { return }
        guard let rowSources = cachedRowSources(soup, walked: index) else {
            try walkReadingDocuments(index, soup, emit)
            return
        }
        let emitted = try walk(index, rowSources.sources, emit)
        // Until the walked field has a column of its own, each walked value is a new string
        // made from the index's bytes; once statements have made enough of them, the column
        // is read (as for fields read from documents) and later walks share its strings.
        if readsWalked, !rowSources.walkedFromColumn, emitted > 0, SQLColumnCache.shared.recordDemand(emitted, for: index) {
            _ = SQLColumnCache.shared.column(of: index)
        }
    }

    /// Where one result column's value comes from in a run with cached columns.
    enum RowSource {
        case walked
        case entryID
        /// Unretained here: ``SQLScanRowSources`` holds a reference for the run.
        case column(Unmanaged<SQLColumn>)
    }

    /// The walk when every field read by id has a cached column.
    /// The number of rows emitted.
    private func walk<Value: SQLRowValue>(
        _ index: OrderedIndex, _ rowSources: [RowSource], _ emit: ([Value]) throws(QueryError) -> Bool
    ) throws(QueryError) -> Int {
        var row = [Value](repeating: .sqlNull, count: rowSources.count)
        var emitted = 0
        var failure: QueryError?
        index.forEachBorrowed(from: offset, descending: descending) { entry in
            let id = entry.id
            for i in rowSources.indices {
                switch rowSources[i] {
                case .walked:
                    // Text straight from the index's bytes (no IndexValue in between).
                    if let bytes = entry.textBytes {
                        row[i] = Value(utf8: bytes)
                    } else {
                        row[i] = Value(SQLValue(entry.value))
                    }
                case .entryID: row[i] = Value(.integer(id))
                case .column(let column): row[i] = Value(column._withUnsafeGuaranteedRef { $0.value(of: id) })
                }
            }
            emitted += 1
            do throws(QueryError) {
                guard try emit(row) else { return false }
            } catch {
                failure = error
                return false
            }
            return limit.map { emitted < $0 } ?? true
        }
        if let failure { throw failure }
        return emitted
    }

    /// The walk before the columns are cached: each row's other values from its document
    /// (which tells the column cache how many documents statements read for these fields).
    private func walkReadingDocuments<Value: SQLRowValue>(
        _ index: OrderedIndex, _ soup: any SQLSoup, _ emit: ([Value]) throws(QueryError) -> Bool
    ) throws(QueryError) {
        let loader = SQLTableLoader(table: table, soup: soup, suppliedField: walkedFieldIndex)
        defer { loader.reportDemand() }
        var values: [SQLValue] = []
        var row = [Value](repeating: .sqlNull, count: sources.count)
        var emitted = 0
        var failure: QueryError?
        index.forEachBorrowed(from: offset, descending: descending) { entry in
            do throws(QueryError) {
                let walked = entry.value
                // An entry of the index without a stored entry (never, in a consistent store)
                // gives no row, as in the executor.
                guard try loader.load(entry.id, known: (walkedFieldIndex, walked), into: &values) else { return true }
                for (i, source) in sources.enumerated() {
                    switch source {
                    case .walked: row[i] = Value(SQLValue(walked))
                    case .entryID: row[i] = Value(.integer(entry.id))
                    case .field(let field): row[i] = Value(values[field])
                    }
                }
                emitted += 1
                guard try emit(row) else { return false }
                return limit.map { emitted < $0 } ?? true
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
    }

    /// Per result column, where its value comes from (holding the columns read for the run),
    /// when every field read by id has a cached column; nil otherwise. The walked field's
    /// column is used when it is cached too. A run of an unchanged soup finds all of it in
    /// the statement's memo (one lock, its content version compared, a weak load per column).
    private func cachedRowSources(_ soup: any SQLSoup, walked index: OrderedIndex) -> SQLScanRowSources? {
        if let remembered = lastColumns.rowSources(
            soupVersion: soup.contentVersion, walked: index, readsWalked: readsWalked,
            byID: { position in
                SQLAccessPlanner.orderedIndex(of: table.fields[fieldsByID[position]], in: soup, schema: table.schema)?.versionToken
            })
        {
            return remembered
        }
        var indexes: [OrderedIndex?] = []
        indexes.reserveCapacity(fieldsByID.count)
        for field in fieldsByID {
            indexes.append(SQLAccessPlanner.orderedIndex(of: table.fields[field], in: soup, schema: table.schema))
        }
        guard let cached = SQLColumnCache.shared.cachedColumns(of: indexes) else { return nil }
        var columns: [SQLColumn] = []
        for column in cached {
            guard let column else { return nil }
            columns.append(column)
        }
        let walkedColumn = readsWalked ? SQLColumnCache.shared.cachedColumn(of: index) : nil
        var rowSources: [RowSource] = []
        rowSources.reserveCapacity(sources.count)
        for source in sources {
            switch source {
            case .walked:
                rowSources.append(walkedColumn.map { .column(Unmanaged.passUnretained($0)) } ?? .walked)
            case .entryID: rowSources.append(.entryID)
            case .field(let field):
                guard let position = fieldsByID.firstIndex(of: field) else { return nil }
                rowSources.append(.column(Unmanaged.passUnretained(columns[position])))
            }
        }
        var distinct = columns.map { Unmanaged.passUnretained($0) }
        if let walkedColumn { distinct.append(Unmanaged.passUnretained(walkedColumn)) }
        lastColumns.remember(
            SQLColumnMemo.Remembered(
                soupVersion: soup.contentVersion, versions: indexes.map { SQLWeakIndexVersion(object: $0?.versionToken) },
                walkedVersion: walkedColumn.map { _ in SQLWeakIndexVersion(object: index.versionToken) },
                columns: columns.map { SQLWeakColumn(column: $0) } + (walkedColumn.map { [SQLWeakColumn(column: $0)] } ?? []),
                distinct: distinct, rowSources: rowSources))
        // Every column is held by `columns` or `walkedColumn` here.
        let held = SQLScanRowSources(retaining: distinct, sources: rowSources, walkedFromColumn: walkedColumn != nil)
        return held
    }
}
