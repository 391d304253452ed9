// Runs a query spec against one store state: the planner (StockpotQuery) finds the results in
// order; this reads one page of rows, as documents or as select-path values, with the total
// (deferred when counting costs more than the page).

import StockpotIndex
import StockpotJSON
import StockpotQuery

/// Answers query specs over a store state; entries are read through `read`, so a
/// transaction sees its own writes.
struct QueryRunner {
    let state: StoreState
    let read: (_ soup: UInt32, _ id: Int64) throws(StockpotError) -> EntryRecord?

    /// The results of `spec` in `soupName`, in order.
    ///
    /// - Throws: `soup_not_found`; `invalid_query` for a malformed spec.
    func results(of spec: QuerySpec, in soupName: String) throws(StockpotError) -> (SoupState, ResultOrder) {
        let soup = try state.existingSoup(named: soupName)
        do {
            return (soup, try QueryPlanner(soup: SoupQuerySource(soup: soup, read: read)).results(of: spec))
        } catch {
            throw StockpotError(error)
        }
    }

    /// The number of results of `spec` in `soupName`.
    func count(of spec: QuerySpec, in soupName: String) throws(StockpotError) -> Int {
        let soup = try state.existingSoup(named: soupName)
        do {
            return try QueryPlanner(soup: SoupQuerySource(soup: soup, read: read)).count(of: spec)
        } catch {
            throw StockpotError(error)
        }
    }

    /// One page of `spec`'s results. Its total is counted when first read if counting costs
    /// more than the page (`ResultOrder.knownCount` is nil), over the same results.
    func page(_ spec: QuerySpec, in soupName: String, index: Int) throws(StockpotError) -> QueryPage {
        let (soup, order) = try results(of: spec, in: soupName)
        let (start, overflow) = index.multipliedReportingOverflow(by: spec.pageSize)
        let ids = overflow ? [] : order.ids(from: start, length: spec.pageSize)
        if let paths = spec.selectPaths, paths.allSatisfy({ $0.utf8Equals(SystemField.entryID) }) {
            // Entry ids alone: answered from the results, no document read.
            return Self.page(rows: ids.map { id in .array(paths.map { _ in .integer(id) }) }, of: order)
        }
        var rows: [JSONValue] = []
        rows.reserveCapacity(ids.count)
        for id in ids {
            guard let record = try read(soup.id, id) else {
                throw StockpotError(.internal, "Entry \(id) of soup \"\(soup.name)\" is indexed but not stored.")
            }
            let document = try DocumentDecoding.parse(record.document)
            if let paths = spec.selectPaths {
                rows.append(.array(paths.map { SelectedValue.value(at: $0, of: document, record: record, in: soup) }))
            } else {
                rows.append(document)
            }
        }
        return Self.page(rows: rows, of: order)
    }

    private static func page(rows: [JSONValue], of order: ResultOrder) -> QueryPage {
        if let count = order.knownCount { return QueryPage(totalEntries: count, rows: rows) }
        return QueryPage(rows: rows) { order.count }
    }
}
