// How an application walking pages in order pages through SQLite when it is set up well:
// by key (`WHERE (col, id) > (last row's) ORDER BY col, id LIMIT n`) instead of by offset.
// The SQLite side of page-walk calls under `--sqlite tuned`; the key of each page is the
// previous page's last row, which the walking application holds (found here untimed).

import Stockpot

/// Keyset statements for the walk calls of a query workload.
struct KeysetPages {
    /// Per call: the statement to run instead of the offset one, or `nil`.
    private let statements: [SmartStoreStatement?]

    init(fixture: QueryFixture, calls: [QueryCall]) throws {
        let sql = fixture.sql
        statements = try calls.map { call in
            guard call.walk, !call.counts, let orderPath = call.spec.orderPath ?? call.spec.indexPath else { return nil }
            var spec = call.spec
            if call.shape == .field, spec.selectPaths == nil { spec.selectPaths = ["Name"] }
            let select = (spec.selectPaths ?? ["_soup"]).map(sql.column).joined(separator: ", ")
            let order = sql.column(orderPath), id = sql.column("_soupEntryId")
            let tail = "ORDER BY \(order), \(id) LIMIT \(spec.pageSize)"
            guard call.page > 0 else {
                return SmartStoreStatement(sql: "SELECT \(select) FROM \(sql.table) \(tail)", binds: [])
            }
            var previous = spec
            previous.selectPaths = [orderPath, "_soupEntryId"]
            let page = try sql.page(previous, page: call.page - 1)
            guard let last = try fixture.baseline.database.query(page.sql, binds: page.binds).last, last.count == 2 else {
                throw BenchFailure("keyset paging: page \(call.page - 1) of \(orderPath) is empty")
            }
            return SmartStoreStatement(
                sql: "SELECT \(select) FROM \(sql.table) WHERE (\(order), \(id)) > (?, ?) \(tail)", binds: last)
        }
    }

    /// The keyset statement for call `index`, or `nil` when the call pages by offset.
    func statement(_ index: Int) -> SmartStoreStatement? { statements[index] }
}
