// Smart SQL over a store view: streaming rows, one page of rows, and counts. The engine
// (parse, bind, plan, execute) lives in StockpotQuery/SQL; this adapts it to the store.

import StockpotJSON
import StockpotQuery

extension StoreView {
    /// Runs a Smart SQL statement, calling `body` with each result row (one value per result
    /// column) until it returns false. Rows are produced as they are found, not collected.
    ///
    /// Values: integers as `.integer`, doubles as `.double`, text as `.string`, null as `.null`,
    /// a `{soup:_soup}` column as the document object.
    ///
    /// - Parameter arguments: the values bound to the `?` placeholders, in order.
    /// - Throws: `smart_sql_syntax` (with the character position), `read_only_statement`,
    ///   `soup_not_found`, `invalid_query` (unknown function, wrong argument count, a bad path or
    ///   placeholder count); `corruption` or `io_error` from reading.
    public func forEachSmartRow(
        _ sql: String, arguments: [JSONValue] = [], _ body: ([JSONValue]) -> Bool
    ) throws(StockpotError) {
        throw StockpotError(.invalidQuery, "Smart SQL is not available yet.")
    }

    /// One page of a Smart SQL statement's rows, each row a `.array` of its values, with the
    /// total number of rows.
    ///
    /// - Parameters:
    ///   - page: 0-based; a page past the end has no rows.
    ///   - pageSize: rows per page, at least 1.
    /// - Throws: as ``forEachSmartRow(_:arguments:_:)``.
    public func smartQuery(
        _ sql: String, arguments: [JSONValue] = [], page: Int = 0, pageSize: Int
    ) throws(StockpotError) -> QueryPage {
        throw StockpotError(.invalidQuery, "Smart SQL is not available yet.")
    }

    /// The number of rows a Smart SQL statement returns.
    ///
    /// - Throws: as ``forEachSmartRow(_:arguments:_:)``.
    public func smartCount(_ sql: String, arguments: [JSONValue] = []) throws(StockpotError) -> Int {
        throw StockpotError(.invalidQuery, "Smart SQL is not available yet.")
    }
}
