// Runs a query spec against one store state: finds the results in order (by the order
// path's index when it has one, by a scan otherwise) and reads one page of rows.

import StockpotIndex
import StockpotJSON

/// Answers query specs over a store state; entries are read through `read`, so a
/// transaction sees its own writes.
struct QueryRunner {
    let state: StoreState
    let read: (_ soup: UInt32, _ id: Int64) throws(StockpotError) -> EntryRecord?

    /// The results of `spec` in `soupName`, in order.
    ///
    /// - Throws: `soup_not_found`; `invalid_query` for a malformed spec or a query type not
    ///   supported yet.
    func results(of spec: QuerySpec, in soupName: String) throws(StockpotError) -> (SoupState, ResultOrder) {
        let soup = try state.existingSoup(named: soupName)
        try Self.validate(spec)
        let descending = spec.order == .descending
        switch spec.orderPath ?? spec.indexPath {
        case nil:
            return (soup, .index(soup.entryIDs, descending: descending))
        case let path? where path.utf8Equals(SystemField.entryID):
            return (soup, .index(soup.entryIDs, descending: descending))
        case let path?:
            if let index = soup.orderedIndex(forPath: path) {
                return (soup, .index(index.tree, descending: descending))
            }
            return (soup, .ids(try scanOrder(soup, path: path, descending: descending)))
        }
    }

    /// Checks what this version answers: `all` queries (and `range` with no path and no keys,
    /// which is the same), a page size of at least 1.
    static func validate(_ spec: QuerySpec) throws(StockpotError) {
        guard spec.pageSize >= 1 else {
            throw StockpotError(.invalidQuery, "The page size is \(spec.pageSize); it must be at least 1.")
        }
        switch spec.queryType {
        case .all:
            return
        case .range where spec.indexPath == nil && spec.beginKey == nil && spec.endKey == nil:
            return
        default:
            throw StockpotError(
                .invalidQuery, "Queries of type \"\(spec.queryType.rawValue)\" are not supported yet; use \"all\".")
        }
    }

    /// One page of `spec`'s results.
    func page(_ spec: QuerySpec, in soupName: String, index: Int) throws(StockpotError) -> QueryPage {
        let (soup, order) = try results(of: spec, in: soupName)
        let (start, overflow) = index.multipliedReportingOverflow(by: spec.pageSize)
        let ids = overflow ? [] : order.ids(from: start, length: spec.pageSize)
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
        return QueryPage(totalEntries: order.count, rows: rows)
    }

    /// The ids of a path with no index, ordered by the values a `json1` index would hold
    /// (ties by id, the whole order reversed when descending).
    private func scanOrder(_ soup: SoupState, path: String, descending: Bool) throws(StockpotError) -> [Int64] {
        var keyed: [IndexEntry] = []
        keyed.reserveCapacity(soup.count)
        let jsonPath = JSONPath(path)
        var failure: StockpotError?
        soup.entryIDs.forEach { entry in
            do throws(StockpotError) {
                guard let record = try read(soup.id, entry.id) else { return true }
                let value: IndexValue
                if path.utf8Equals(SystemField.created) {
                    value = .integer(record.created)
                } else {
                    value = IndexValue(document: try DocumentDecoding.parse(record.document), path: jsonPath, type: .json1)
                }
                keyed.append(IndexEntry(value: value, id: entry.id))
                return true
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        keyed.sort { a, b in
            let order = a.value.compare(b.value)
            return order != 0 ? order < 0 : a.id < b.id
        }
        let ids = keyed.map(\.id)
        return descending ? ids.reversed() : ids
    }
}
