// The entry point of Smart SQL: a statement's text, parsed once (cached), bound to a store's
// soups with its arguments, and run, its rows streamed to the caller.

import StockpotJSON

/// Runs Smart SQL statements over a catalog of soups.
package enum SmartSQLQuery {
    /// Parsed statements by text, shared by every store.
    static let statements = SQLStatementCache()

    /// Runs `text`, calling `body` with each row until it returns false.
    ///
    /// - Parameters:
    ///   - arguments: the values of the `?` placeholders, in order.
    ///   - body: called with the row's values and the set of columns that are `{soup:_soup}`
    ///     documents (their values are the document's JSON text).
    /// - Throws: `smart_sql_syntax`, `read_only_statement`, `soup_not_found`,
    ///   `invalid_query`; read failures.
    package static func run(
        _ text: String, arguments: [SQLValue], catalog: any SQLCatalog,
        _ body: (_ row: [SQLValue], _ documentColumns: Set<Int>) throws(QueryError) -> Bool
    ) throws(QueryError) {
        let select = try parse(text)
        var binder = SQLBinder(catalog: catalog, arguments: arguments)
        let bound = try binder.bindStatement(select)
        let executor = SQLExecutor(frame: RowFrame(slots: binder.slotCount, aggregates: binder.aggregateCount))
        try executor.run(bound) { row throws(QueryError) -> Bool in try body(row, bound.documentColumns) }
        executor.reportDemand()
    }

    /// The number of rows `text` returns.
    package static func count(_ text: String, arguments: [SQLValue], catalog: any SQLCatalog) throws(QueryError) -> Int {
        var count = 0
        try run(text, arguments: arguments, catalog: catalog) { _, _ in
            count += 1
            return true
        }
        return count
    }

    /// The parsed statement, from the cache when it was parsed before.
    private static func parse(_ text: String) throws(QueryError) -> SQLSelect {
        do {
            return try statements.parse(text)
        } catch {
            throw QueryError(error.code == .readOnlyStatement ? .readOnlyStatement : .smartSQLSyntax, error.message)
        }
    }
}
