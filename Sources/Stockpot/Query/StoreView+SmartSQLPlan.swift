// How a Smart SQL statement would run, without running it (docs/smart-sql.md, "Query plans"):
// the lines `EXPLAIN QUERY PLAN` returns, as values.

import StockpotQuery

/// One line of a Smart SQL statement's plan (``StoreView/explain(smartSQL:arguments:)``).
public struct SmartSQLPlanLine: Sendable, Hashable, CustomStringConvertible {
    /// The line's number, from 1.
    public var id: Int
    /// The line it belongs to (an IN subquery's line), 0 at the top.
    public var parent: Int
    /// What is done: `SCAN soup`, `SEARCH soup USING INDEX ON path (path=?)`, `USE SORT FOR
    /// ORDER BY`, ... (docs/smart-sql.md lists every form).
    public var detail: String

    public var description: String { detail }
}

extension StoreView {
    /// How `sql` would run over this view: for each soup in join order how its rows are found
    /// (a scan, an index range, a hash lookup, the full-text index), then how grouping,
    /// DISTINCT and ORDER BY are done, each IN subquery under a line of its own. The same
    /// lines as `EXPLAIN QUERY PLAN` followed by the statement. Nothing is run.
    ///
    /// - Throws: as ``smartQuery(_:arguments:page:pageSize:budget:)`` does for a statement
    ///   it cannot run (`smart_sql_syntax`, `read_only_statement`, `soup_not_found`,
    ///   `invalid_query`).
    public func explain(smartSQL sql: String, arguments: [JSONValue] = []) throws(StockpotError) -> [SmartSQLPlanLine] {
        let values = try Self.sqlArguments(arguments)
        do {
            return try SmartSQLQuery.plan(sql, arguments: values, catalog: catalog).map {
                SmartSQLPlanLine(id: $0.id, parent: $0.parent, detail: $0.detail)
            }
        } catch {
            throw StockpotError(error)
        }
    }
}
