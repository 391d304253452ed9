// Reading inside a write transaction: queries, counts and Smart SQL that see the transaction's
// own changes (soups registered, entries written and deleted) and nothing of other writers,
// which wait for it. The same answers a view of the committed state would give.

extension WriteTransaction {
    /// The store as this transaction found it, without its own changes: what a reader saw
    /// when the transaction began (sync asks it whether a soup changed since a sequence).
    package var startView: StoreView { StoreView(state: base) }

    /// One page of a query's results, as this transaction sees the soup. See
    /// ``StoreView/query(_:in:page:)-(QuerySpec,_,_)``.
    ///
    /// - Throws: `soup_not_found`, `invalid_query`; `corruption` or `io_error` from reading.
    public func query(_ spec: QuerySpec, in soup: String, page: Int = 0) throws(StockpotError) -> QueryPage {
        try runner.page(spec, in: soup, index: max(page, 0))
    }

    /// Like ``query(_:in:page:)-(QuerySpec,_,_)``, the rows as UTF-8 JSON. See ``StoreView/query(json:in:page:)``.
    public func query(json spec: QuerySpec, in soup: String, page: Int = 0) throws(StockpotError) -> QueryJSONPage {
        try runner.jsonPage(spec, in: soup, index: max(page, 0))
    }

    /// The number of results of a query, as this transaction sees the soup.
    ///
    /// - Throws: `soup_not_found`, `invalid_query`.
    public func count(_ spec: QuerySpec, in soup: String) throws(StockpotError) -> Int {
        try runner.count(of: spec, in: soup)
    }

    /// One page of a typed query's results, as this transaction sees the soup.
    public func query(_ query: Query, in soup: String, page: Int = 0) throws(StockpotError) -> QueryPage {
        try runner.page(query.spec, in: soup, index: max(page, 0))
    }

    /// The number of results of a typed query, as this transaction sees the soup.
    public func count(_ query: Query, in soup: String) throws(StockpotError) -> Int {
        try runner.count(of: query.spec, in: soup)
    }

    /// The number of entries in a soup, as this transaction sees it.
    ///
    /// - Throws: `soup_not_found`.
    public func count(of soup: String) throws(StockpotError) -> Int {
        try state.existingSoup(named: soup).count
    }

    /// One page of a Smart SQL statement's rows over the soups as this transaction sees them.
    /// See ``StoreView/smartQuery(_:arguments:page:pageSize:budget:)``.
    public func smartQuery(
        _ sql: String, arguments: [JSONValue] = [], page: Int = 0, pageSize: Int, budget: QueryBudget = .default
    ) throws(StockpotError) -> QueryPage {
        try StoreView.smartQuery(sql, arguments: arguments, page: page, pageSize: pageSize, budget: budget, catalog: catalog)
    }

    /// The number of rows of a Smart SQL statement over the soups as this transaction sees
    /// them. See ``StoreView/smartCount(_:arguments:budget:)``.
    public func smartCount(_ sql: String, arguments: [JSONValue] = [], budget: QueryBudget = .default) throws(StockpotError) -> Int {
        try StoreView.smartCount(sql, arguments: arguments, budget: budget, catalog: catalog)
    }

    /// Each row of a Smart SQL statement over the soups as this transaction sees them. See
    /// ``StoreView/forEachSmartRow(_:arguments:budget:_:)``.
    public func forEachSmartRow(
        _ sql: String, arguments: [JSONValue] = [], budget: QueryBudget = .default, _ body: ([JSONValue]) -> Bool
    ) throws(StockpotError) {
        try StoreView.forEachSmartRow(sql, arguments: arguments, budget: budget, catalog: catalog, body)
    }

    /// Queries over the working state, reading entries through the transaction's own writes.
    private var runner: QueryRunner {
        QueryRunner(state: state, reader: .closure { soup, id throws(StockpotError) in try self.entryRecord(soup: soup, id: id) })
    }

    /// The working state's soups for Smart SQL, reading through the transaction's own writes.
    private var catalog: StoreSQLCatalog {
        StoreSQLCatalog(state: state) { soup, id throws(StockpotError) in try self.entryRecord(soup: soup, id: id) }
    }
}
