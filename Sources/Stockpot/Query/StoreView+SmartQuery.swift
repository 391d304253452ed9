// Smart SQL over a store view: streaming rows, one page of rows, and counts. The engine
// (parse, bind, plan, execute) lives in StockpotQuery/SQL; this adapts it to the store.

import StockpotJSON
import StockpotQuery

extension StoreView {
    /// Runs a Smart SQL statement, calling `body` with each result row (one value per result
    /// column) until it returns false. Rows are produced as they are found, not collected.
    /// A statement longer than 512 bytes runs (and calls `body`) on a thread with a large
    /// stack while this call waits (docs/smart-sql.md, "Deep statements").
    ///
    /// Values: integers as `.integer`, doubles as `.double`, text as `.string`, null as `.null`,
    /// a `{soup:_soup}` column as the document object.
    ///
    /// - Parameters:
    ///   - sql: The statement.
    ///   - arguments: The values bound to the `?` placeholders, in order.
    ///   - budget: The time and memory the statement may spend.
    ///   - body: Called with each row; returns false to stop.
    /// - Throws: `smart_sql_syntax` (with the character position), `read_only_statement`,
    ///   `soup_not_found`, `invalid_query` (unknown function, wrong argument count, a bad path or
    ///   placeholder count); `resource_limit` past `budget`'s deadline or memory; `corruption`
    ///   or `io_error` from reading.
    public func forEachSmartRow(
        _ sql: String, arguments: [JSONValue] = [], budget: QueryBudget = .default, _ body: ([JSONValue]) -> Bool
    ) throws(StockpotError) {
        try Self.forEachSmartRow(sql, arguments: arguments, budget: budget, catalog: catalog, body)
    }

    /// The soups of this view's state, for Smart SQL.
    var catalog: StoreSQLCatalog {
        StoreSQLCatalog(state: state) { [state] soup, id throws(StockpotError) in try state.storedEntry(soup: soup, id: id) }
    }

    /// ``forEachSmartRow(_:arguments:budget:_:)`` over `catalog`'s soups (a view's, or a
    /// transaction's, which sees its own writes).
    @discardableResult
    static func forEachSmartRow(
        _ sql: String, arguments: [JSONValue], budget: QueryBudget, catalog: StoreSQLCatalog, _ body: ([JSONValue]) -> Bool
    ) throws(StockpotError) -> SQLRoute {
        let values = try Self.sqlArguments(arguments)
        // One row buffer for every row (a closure that keeps a row gets its own copy).
        var json: [JSONValue] = []
        do {
            // An index walk builds its rows as JSON values itself; the executor's rows are
            // converted here.
            return try SmartSQLQuery.run(
                sql, arguments: values, catalog: catalog, budget: budget.sqlBudget, scanned: body
            ) { row, documents throws(QueryError) -> Bool in
                try Self.jsonRow(row, documents: documents, into: &json)
                return body(json)
            }
        } catch {
            throw StockpotError(error)
        }
    }

    /// Runs `sql` to the end and says which path answered it (``SQLRoute``): for tests, and
    /// for plans.
    package func smartSQLRoute(_ sql: String, arguments: [JSONValue] = []) throws(StockpotError) -> SQLRoute {
        try Self.forEachSmartRow(sql, arguments: arguments, budget: .default, catalog: catalog) { _ in true }
    }

    /// One page of a Smart SQL statement's rows, each row a `.array` of its values, with the
    /// total number of rows.
    ///
    /// - Parameters:
    ///   - sql: The statement.
    ///   - arguments: The values bound to the `?` placeholders, in order.
    ///   - page: 0-based; a page past the end has no rows.
    ///   - pageSize: rows per page, at least 1.
    ///   - budget: The time and memory the statement may spend.
    /// - Throws: as ``forEachSmartRow(_:arguments:budget:_:)``; `invalid_query` for a page size
    ///   below 1.
    public func smartQuery(
        _ sql: String, arguments: [JSONValue] = [], page: Int = 0, pageSize: Int, budget: QueryBudget = .default
    ) throws(StockpotError) -> QueryPage {
        try Self.smartQuery(sql, arguments: arguments, page: page, pageSize: pageSize, budget: budget, catalog: catalog)
    }

    /// ``smartQuery(_:arguments:page:pageSize:budget:)`` over `catalog`'s soups.
    static func smartQuery(
        _ sql: String, arguments: [JSONValue], page: Int, pageSize: Int, budget: QueryBudget, catalog: StoreSQLCatalog
    ) throws(StockpotError) -> QueryPage {
        guard pageSize >= 1 else {
            throw StockpotError(.invalidQuery, "The page size is \(pageSize); it must be at least 1.")
        }
        let (first, overflow) = max(page, 0).multipliedReportingOverflow(by: pageSize)
        var rows: [JSONValue] = []
        var total = 0
        try forEachSmartRow(sql, arguments: arguments, budget: budget, catalog: catalog) { row in
            if !overflow, total >= first, total - first < pageSize { rows.append(.array(row)) }
            total += 1
            return true
        }
        return QueryPage(totalEntries: total, rows: rows)
    }

    /// The number of rows a Smart SQL statement returns.
    ///
    /// - Throws: as ``forEachSmartRow(_:arguments:budget:_:)``.
    public func smartCount(
        _ sql: String, arguments: [JSONValue] = [], budget: QueryBudget = .default
    ) throws(StockpotError) -> Int {
        try Self.smartCount(sql, arguments: arguments, budget: budget, catalog: catalog)
    }

    /// ``smartCount(_:arguments:budget:)`` over `catalog`'s soups.
    static func smartCount(
        _ sql: String, arguments: [JSONValue], budget: QueryBudget, catalog: StoreSQLCatalog
    ) throws(StockpotError) -> Int {
        let values = try Self.sqlArguments(arguments)
        do {
            return try SmartSQLQuery.count(sql, arguments: values, catalog: catalog, budget: budget.sqlBudget)
        } catch {
            throw StockpotError(error)
        }
    }

    /// The names of a Smart SQL statement's result columns: each column's `AS` alias, else
    /// its expression as written (SQLite's names). Nothing is run.
    ///
    /// - Throws: as ``forEachSmartRow(_:arguments:budget:_:)``.
    public func smartColumnNames(_ sql: String, arguments: [JSONValue] = []) throws(StockpotError) -> [String] {
        let values = try Self.sqlArguments(arguments)
        do {
            return try SmartSQLQuery.columnNames(sql, arguments: values, catalog: catalog)
        } catch {
            throw StockpotError(error)
        }
    }

    /// Placeholder values: numbers, strings, booleans (as 1 and 0) and null.
    static func sqlArguments(_ arguments: [JSONValue]) throws(StockpotError) -> [SQLValue] {
        var values: [SQLValue] = []
        for (i, argument) in arguments.enumerated() {
            switch argument {
            case .null: values.append(.null)
            case .bool(let flag): values.append(.integer(flag ? 1 : 0))
            case .integer(let integer): values.append(.integer(integer))
            case .double(let double): values.append(.real(double))
            case .string(let text): values.append(.text(text))
            case .array, .object:
                throw StockpotError(.invalidQuery, "Argument \(i + 1) is an array or object; bind numbers, strings, booleans or null.")
            }
        }
        return values
    }

    /// A row as JSON values in `values` (replaced); `{soup:_soup}` columns become their
    /// documents, read on demand (`DocumentDecoding.document`).
    private static func jsonRow(_ row: [SQLValue], documents: Set<Int>, into values: inout [JSONValue]) throws(QueryError) {
        // Assigned in place: the buffer is the caller's only copy again once its closure has
        // returned, so no row allocates.
        if values.count != row.count { values = Array(repeating: .null, count: row.count) }
        for i in row.indices {
            if !documents.isEmpty, documents.contains(i), case .text(let text) = row[i] {
                do {
                    values[i] = try DocumentDecoding.document(Array(text.utf8))
                } catch {
                    throw QueryError(.corruption, error.message)
                }
            } else {
                values[i] = row[i].jsonValue
            }
        }
    }
}
