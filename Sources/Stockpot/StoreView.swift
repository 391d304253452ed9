// A consistent read-only view of a store: the state published by one commit. Reads never
// wait for writers, and a view never changes.

import StockpotIndex
import StockpotJSON

/// One consistent state of a store, for reading. Taken by `Store.read` (or `Store.view()`);
/// later writes never show in it. Immutable and `Sendable`: share it across threads freely.
public struct StoreView: Sendable {
    let state: StoreState
    /// Set by the async query calls: a scan stops at its next entry once it is cancelled.
    var cancellation: SQLCancellation?

    init(state: StoreState) {
        self.state = state
    }

    /// Whether a soup exists.
    public func soupExists(_ name: String) -> Bool {
        state.soup(named: name) != nil
    }

    /// Every soup name, sorted by UTF-8 bytes.
    public func allSoupNames() -> [String] {
        state.soupNames
    }

    /// A soup's index specs, in registration order.
    ///
    /// - Throws: `soup_not_found`.
    public func indexSpecs(of soup: String) throws(StockpotError) -> [IndexSpec] {
        try state.existingSoup(named: soup).record.specs
    }

    /// The entries with these ids that exist, in the order of `ids`.
    ///
    /// - Throws: `soup_not_found`; `corruption` or `io_error` from reading.
    public func retrieve(_ ids: [Int64], from soup: String) throws(StockpotError) -> [JSONValue] {
        try retrieve(json: ids, from: soup).map { bytes throws(StockpotError) in try DocumentDecoding.document(bytes) }
    }

    /// Like ``retrieve(_:from:)``, returning compact UTF-8 JSON documents.
    public func retrieve(json ids: [Int64], from soupName: String) throws(StockpotError) -> [[UInt8]] {
        let soup = try state.existingSoupID(named: soupName)
        var documents: [[UInt8]] = []
        documents.reserveCapacity(ids.count)
        // The engine's key directory alone says whether an entry exists: no index lookup.
        if ids.count == 1 {
            if let record = try state.storedEntry(soup: soup, id: ids[0]) { documents.append(record.document) }
            return documents
        }
        // Several ids: read as one batch, so the records' memory latencies overlap.
        for record in try state.storedEntries(soup: soup, ids: ids) {
            if let record { documents.append(record.document) }
        }
        return documents
    }

    /// The number of entries in a soup.
    ///
    /// - Throws: `soup_not_found`.
    /// - Complexity: O(1).
    public func count(of soup: String) throws(StockpotError) -> Int {
        try state.existingSoup(named: soup).count
    }

    /// One page of a query's results.
    ///
    /// The page's `totalEntries` is counted when first read when counting costs more than the
    /// page: a `like` query that is not a prefix finds its page by testing the index's keys in
    /// order and stops at the page's last row, as SQLite does; its total tests every key, over
    /// this view's state, the first time it is read (see `QueryPage`). Callers that need
    /// only the rows never pay for it.
    ///
    /// - Parameters:
    ///   - spec: The query.
    ///   - soup: The soup's name.
    ///   - page: 0-based; a page past the end has no rows.
    /// - Throws: `soup_not_found`, `invalid_query`.
    /// - Complexity: O(log n + page size) when the order path is indexed; for a `like` that is
    ///   not a prefix, the keys up to the page's last match.
    public func query(_ spec: QuerySpec, in soup: String, page: Int = 0) throws(StockpotError) -> QueryPage {
        try runner.page(spec, in: soup, index: max(page, 0))
    }

    /// One page of a query's results as UTF-8 JSON, without parsing the documents: each
    /// document's bytes as stored (what ``retrieve(json:from:)`` gives), or, with select
    /// paths, each row's array of values written out. The same rows, in the same order, with
    /// the same total (deferred the same way) as ``query(_:in:page:)-(QuerySpec,_,_)``; for callers that pass
    /// the rows on rather than read them (SmartStore's `queryAsString`).
    ///
    /// - Parameters:
    ///   - spec: The query.
    ///   - soup: The soup's name.
    ///   - page: 0-based; a page past the end has no rows.
    /// - Throws: `soup_not_found`, `invalid_query`.
    public func query(json spec: QuerySpec, in soup: String, page: Int = 0) throws(StockpotError) -> QueryJSONPage {
        try runner.jsonPage(spec, in: soup, index: max(page, 0))
    }

    /// The number of results of a query.
    ///
    /// - Throws: `soup_not_found`, `invalid_query`.
    public func count(_ spec: QuerySpec, in soup: String) throws(StockpotError) -> Int {
        try runner.count(of: spec, in: soup)
    }

    /// One page of a typed query's results; the same as ``query(_:in:page:)`` with its spec.
    public func query(_ query: Query, in soup: String, page: Int = 0) throws(StockpotError) -> QueryPage {
        try runner.page(query.spec, in: soup, index: max(page, 0))
    }

    /// The number of results of a typed query.
    public func count(_ query: Query, in soup: String) throws(StockpotError) -> Int {
        try runner.count(of: query.spec, in: soup)
    }

    /// The entry at 1-based `position` of a soup ordered by an indexed path (or by
    /// `_soupEntryId`), for table views; nil past either end.
    ///
    /// - Throws: `soup_not_found`; `invalid_query` when `path` has no index.
    /// - Complexity: O(log n) plus one read.
    public func entry(
        at position: Int, in soup: String, orderedBy path: String = "_soupEntryId",
        order: QuerySpec.Order = .ascending
    ) throws(StockpotError) -> JSONValue? {
        let (soupState, index) = try positionalIndex(soup, path)
        guard position >= 1, position <= index.count else { return nil }
        let ascending = order == .ascending ? position - 1 : index.count - position
        guard let entry = index.entry(at: ascending),
            let record = try state.storedEntry(soup: soupState.id, id: entry.id)
        else { return nil }
        return try DocumentDecoding.document(record.document)
    }

    /// The 1-based position of entry `id` in a soup ordered by an indexed path (or by
    /// `_soupEntryId`); nil when the entry does not exist.
    ///
    /// - Throws: `soup_not_found`; `invalid_query` when `path` has no index.
    /// - Complexity: O(log n) plus one read.
    public func position(
        of id: Int64, in soup: String, orderedBy path: String = "_soupEntryId",
        order: QuerySpec.Order = .ascending
    ) throws(StockpotError) -> Int? {
        let (soupState, index) = try positionalIndex(soup, path)
        guard soupState.contains(id) else { return nil }
        let value: IndexValue
        if let position = soupState.specIndex(forPath: path) {
            guard let record = try state.storedEntry(soup: soupState.id, id: id) else { return nil }
            value = try soupState.indexedEntry(id: id, document: record.document).values[position]
        } else {
            value = .integer(id)
        }
        let rank = index.rank(of: value, id: id)
        return order == .ascending ? rank + 1 : index.count - rank
    }

    private func positionalIndex(_ soupName: String, _ path: String) throws(StockpotError) -> (SoupState, OrderedIndex) {
        let soup = try state.existingSoup(named: soupName)
        if path.utf8Equals(SystemField.entryID) { return (soup, soup.entryIDs) }
        guard let index = soup.orderedIndex(forPath: path) else {
            throw StockpotError(.invalidQuery, "The path \"\(path)\" has no index in soup \"\(soupName)\"; positions need one.")
        }
        return (soup, index.tree)
    }

    private var runner: QueryRunner {
        QueryRunner(state: state, reader: .state(state), cancellation: cancellation)
    }
}
