// Runs a query spec against one store state: the planner (StockpotQuery) finds the results in
// order; this reads one page of rows, as documents, select-path values or raw JSON, with the
// total (deferred when counting costs more than the page).

import StockpotIndex
import StockpotJSON
import StockpotQuery

/// Answers query specs over a store state; entries are read through `reader`, so a
/// transaction sees its own writes.
struct QueryRunner {
    let state: StoreState
    let reader: EntryReader
    /// Stops a scan of documents at its next entry when cancelled (an async call's task).
    let cancellation: SQLCancellation?

    init(state: StoreState, reader: EntryReader, cancellation: SQLCancellation? = nil) {
        self.state = state
        self.reader = reader
        self.cancellation = cancellation
    }

    /// The results of `spec` in `soupName`, in order.
    ///
    /// - Throws: `soup_not_found`; `invalid_query` for a malformed spec.
    func results(of spec: QuerySpec, in soupName: String) throws(StockpotError) -> (SoupState, ResultOrder) {
        let soup = try state.existingSoup(named: soupName)
        do {
            return (soup, try QueryPlanner(soup: SoupQuerySource(soup: soup, reader: reader, cancellation: cancellation)).results(of: spec))
        } catch {
            throw StockpotError(error)
        }
    }

    /// The number of results of `spec` in `soupName`.
    func count(of spec: QuerySpec, in soupName: String) throws(StockpotError) -> Int {
        let soup = try state.existingSoup(named: soupName)
        do {
            return try QueryPlanner(soup: SoupQuerySource(soup: soup, reader: reader, cancellation: cancellation)).count(of: spec)
        } catch {
            throw StockpotError(error)
        }
    }

    /// One page of `spec`'s results. Its total is counted when first read if counting costs
    /// more than the page (`ResultOrder.knownCount` is nil), over the same results.
    func page(_ spec: QuerySpec, in soupName: String, index: Int) throws(StockpotError) -> QueryPage {
        let (soup, order, ids) = try pageIDs(spec, in: soupName, index: index)
        if let paths = spec.selectPaths, Self.onlyEntryIDs(paths) {
            // Entry ids alone: answered from the results, no document read.
            return QueryPage(rows: ids.map { id in .array(paths.map { _ in .integer(id) }) }, total: Self.total(of: order))
        }
        var rows: [JSONValue] = []
        rows.reserveCapacity(ids.count)
        for record in try storedSlices(ids, in: soup) {
            let document = try DocumentDecoding.document(record.document)
            if let paths = spec.selectPaths {
                rows.append(.array(paths.map { SelectedValue.value(at: $0, of: document, created: record.created, in: soup) }))
            } else {
                rows.append(document)
            }
        }
        return QueryPage(rows: rows, total: Self.total(of: order))
    }

    /// One page of `spec`'s results as UTF-8 JSON: documents as stored, not parsed; rows of
    /// select paths written as arrays.
    func jsonPage(_ spec: QuerySpec, in soupName: String, index: Int) throws(StockpotError) -> QueryJSONPage {
        let (soup, order, ids) = try pageIDs(spec, in: soupName, index: index)
        var rows: [[UInt8]] = []
        rows.reserveCapacity(ids.count)
        guard let paths = spec.selectPaths else {
            for record in try stored(ids, in: soup) { rows.append(record.document) }
            return QueryJSONPage(rows: rows, total: Self.total(of: order))
        }
        for id in ids {
            let values: [JSONValue]
            if Self.onlyEntryIDs(paths) {
                values = paths.map { _ in .integer(id) }
            } else {
                let record = try stored(id, in: soup)
                let document = try DocumentDecoding.document(record.document)
                values = paths.map { SelectedValue.value(at: $0, of: document, created: record.created, in: soup) }
            }
            rows.append(JSONWriter.write(.array(values)))
        }
        return QueryJSONPage(rows: rows, total: Self.total(of: order))
    }

    /// The soup, the results and the ids of page `index`.
    private func pageIDs(
        _ spec: QuerySpec, in soupName: String, index: Int
    ) throws(StockpotError) -> (SoupState, ResultOrder, [Int64]) {
        let (soup, order) = try results(of: spec, in: soupName)
        let (start, overflow) = index.multipliedReportingOverflow(by: spec.pageSize)
        return (soup, order, overflow ? [] : order.ids(from: start, length: spec.pageSize))
    }

    /// The entries `ids` of `soup`, each of which the results say exists, in order.
    private func stored(_ ids: [Int64], in soup: SoupState) throws(StockpotError) -> [EntryRecord] {
        var records: [EntryRecord] = []
        records.reserveCapacity(ids.count)
        for (id, record) in zip(ids, try reader.entries(soup: soup.id, ids: ids)) {
            guard let record else { throw Self.notStored(id, in: soup) }
            records.append(record)
        }
        return records
    }

    /// ``stored(_:in:)`` with the documents in buffers the page's rows share (for rows parsed
    /// on demand, not copied out).
    private func storedSlices(_ ids: [Int64], in soup: SoupState) throws(StockpotError) -> [EntryRecordSlice] {
        var records: [EntryRecordSlice] = []
        records.reserveCapacity(ids.count)
        for (id, record) in zip(ids, try reader.entrySlices(soup: soup.id, ids: ids)) {
            guard let record else { throw Self.notStored(id, in: soup) }
            records.append(record)
        }
        return records
    }

    private func stored(_ id: Int64, in soup: SoupState) throws(StockpotError) -> EntryRecord {
        guard let record = try reader.entry(soup: soup.id, id: id) else { throw Self.notStored(id, in: soup) }
        return record
    }

    private static func notStored(_ id: Int64, in soup: SoupState) -> StockpotError {
        StockpotError(.internal, "Entry \(id) of soup \"\(soup.name)\" is indexed but not stored.")
    }

    private static func onlyEntryIDs(_ paths: [String]) -> Bool {
        paths.allSatisfy { $0.utf8Equals(SystemField.entryID) }
    }

    /// The total of `order`: known, or counted when first read.
    private static func total(of order: ResultOrder) -> QueryTotal {
        if let count = order.knownCount { return QueryTotal(count) }
        return QueryTotal { order.count }
    }
}
