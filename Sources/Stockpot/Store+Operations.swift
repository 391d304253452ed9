// The one-call operations: each soup and entry operation as its own transaction, each read
// against the latest published state.

import StockpotJSON

extension Store {
    /// Registers a soup with its index specs; a soup that exists already keeps its specs.
    ///
    /// - Throws: `invalid_soup_name`, `no_index_specs`, `invalid_index_spec`.
    public func registerSoup(_ name: String, indexSpecs: [IndexSpec]) throws(StockpotError) {
        try perform { (transaction) throws(StockpotError) in try transaction.registerSoup(name, indexSpecs: indexSpecs) }
    }

    /// Whether a soup exists.
    public func soupExists(_ name: String) -> Bool {
        view().soupExists(name)
    }

    /// Every soup name, sorted by UTF-8 bytes.
    public func allSoupNames() -> [String] {
        view().allSoupNames()
    }

    /// A soup's index specs, in registration order.
    ///
    /// - Throws: `soup_not_found`.
    public func indexSpecs(of soup: String) throws(StockpotError) -> [IndexSpec] {
        try view().indexSpecs(of: soup)
    }

    /// Replaces a soup's index specs; every index agrees with every entry when it returns.
    ///
    /// - Throws: `soup_not_found`, `no_index_specs`, `invalid_index_spec`, `unique_violation`.
    public func alterSoup(_ name: String, indexSpecs: [IndexSpec], reIndexData: Bool = true) throws(StockpotError) {
        try perform { (transaction) throws(StockpotError) in
            try transaction.alterSoup(name, indexSpecs: indexSpecs, reIndexData: reIndexData)
        }
    }

    /// Rebuilds a soup's indexes from its entries (they always agree; this is a repair).
    ///
    /// - Throws: `soup_not_found`.
    public func reIndexSoup(_ name: String, paths: [String]) throws(StockpotError) {
        try perform { (transaction) throws(StockpotError) in try transaction.reIndexSoup(name, paths: paths) }
    }

    /// Removes every entry of a soup; ids are not reused.
    ///
    /// - Throws: `soup_not_found`.
    public func clearSoup(_ name: String) throws(StockpotError) {
        try perform { (transaction) throws(StockpotError) in try transaction.clearSoup(name) }
    }

    /// Removes a soup and its entries; a soup that does not exist is no error.
    public func removeSoup(_ name: String) throws(StockpotError) {
        try perform { (transaction) throws(StockpotError) in try transaction.removeSoup(name) }
    }

    /// Inserts or replaces entries, atomically and durably; see
    /// ``WriteTransaction/upsert(_:into:externalIdPath:)``.
    ///
    /// - Returns: The stored documents, system fields included.
    @discardableResult
    public func upsert(
        _ entries: [JSONValue], into soup: String, externalIdPath: String? = nil
    ) throws(StockpotError) -> [JSONValue] {
        try perform { (transaction) throws(StockpotError) in
            try transaction.upsert(entries, into: soup, externalIdPath: externalIdPath)
        }
    }

    /// Inserts or replaces entries given as UTF-8 JSON bytes; returns the stored documents as
    /// compact UTF-8 JSON.
    @discardableResult
    public func upsert(
        json documents: [[UInt8]], into soup: String, externalIdPath: String? = nil
    ) throws(StockpotError) -> [[UInt8]] {
        try perform { (transaction) throws(StockpotError) in
            try transaction.upsert(json: documents, into: soup, externalIdPath: externalIdPath)
        }
    }

    /// The entries with these ids that exist, in the order of `ids`.
    ///
    /// - Throws: `soup_not_found`.
    public func retrieve(_ ids: [Int64], from soup: String) throws(StockpotError) -> [JSONValue] {
        try view().retrieve(ids, from: soup)
    }

    /// The entries with these ids that exist, as compact UTF-8 JSON.
    ///
    /// - Throws: `soup_not_found`.
    public func retrieve(json ids: [Int64], from soup: String) throws(StockpotError) -> [[UInt8]] {
        try view().retrieve(json: ids, from: soup)
    }

    /// Deletes entries by id; ids that do not exist are ignored.
    ///
    /// - Throws: `soup_not_found`.
    public func delete(_ ids: [Int64], from soup: String) throws(StockpotError) {
        try perform { (transaction) throws(StockpotError) in try transaction.delete(ids, from: soup) }
    }

    /// One page of a query's results (see ``StoreView/query(_:in:page:)-(QuerySpec,_,_)``: a costly total is
    /// counted when first read, over the same state as the rows).
    ///
    /// - Throws: `soup_not_found`, `invalid_query`.
    public func query(_ spec: QuerySpec, in soup: String, page: Int = 0) throws(StockpotError) -> QueryPage {
        try view().query(spec, in: soup, page: page)
    }

    /// One page of a query's results as UTF-8 JSON rows, documents not parsed (see
    /// ``StoreView/query(json:in:page:)``).
    ///
    /// - Throws: `soup_not_found`, `invalid_query`.
    public func query(json spec: QuerySpec, in soup: String, page: Int = 0) throws(StockpotError) -> QueryJSONPage {
        try view().query(json: spec, in: soup, page: page)
    }

    /// The number of results of a query.
    ///
    /// - Throws: `soup_not_found`, `invalid_query`.
    public func count(_ spec: QuerySpec, in soup: String) throws(StockpotError) -> Int {
        try view().count(spec, in: soup)
    }

    /// One page of a typed query's results (see ``StoreView/query(_:in:page:)-(Query,_,_)``).
    public func query(_ query: Query, in soup: String, page: Int = 0) throws(StockpotError) -> QueryPage {
        try view().query(query, in: soup, page: page)
    }

    /// The number of results of a typed query.
    public func count(_ query: Query, in soup: String) throws(StockpotError) -> Int {
        try view().count(query, in: soup)
    }

    /// Deletes the first page of a query's results, as SmartStore's delete by query does.
    ///
    /// - Throws: `soup_not_found`, `invalid_query`.
    public func deleteFirstPage(of spec: QuerySpec, in soup: String) throws(StockpotError) {
        try perform { (transaction) throws(StockpotError) in try transaction.deleteFirstPage(of: spec, in: soup) }
    }
}
