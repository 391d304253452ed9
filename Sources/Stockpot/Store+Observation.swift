// Observation on the store: the current result of a soup, a query or a Smart SQL statement,
// and a fresh one after each commit that can change it (docs/store.md, "Observation").

import StockpotJSON
import StockpotQuery

extension Store {
    /// Observes a soup: yields a view of the store at once, then a newer view after each
    /// commit that changed the soup (its entries, its index specs, its removal).
    ///
    /// - Parameter soup: the soup's name.
    /// - Returns: A sequence of views; each holds every commit to the soup made before it was
    ///   yielded. It throws `soup_not_found` when the soup does not exist or is removed.
    public func observe(soup: String) -> StoreObservation<StoreView> {
        StoreObservation(store: self, soups: .success([soup]), offloads: false) { view throws(StockpotError) in
            guard view.soupExists(soup) else {
                throw StockpotError(.soupNotFound, "There is no soup named \"\(soup)\".")
            }
            return view
        }
    }

    /// Observes a query: yields the rows of its first page (what
    /// ``StoreView/query(_:in:page:)-(QuerySpec,_,_)`` gives for page 0) at once, then again after each commit
    /// that changed the soup. Results are computed on a Dispatch worker. (A `smart` spec is
    /// refused, as by `query`: observe its statement with
    /// ``observe(smartSQL:arguments:budget:)``.)
    ///
    /// - Parameters:
    ///   - spec: the query; its page size bounds each result.
    ///   - soup: the soup it runs on.
    /// - Returns: A sequence of row arrays. It throws `soup_not_found` or `invalid_query` as
    ///   the query does.
    public func observe(query spec: QuerySpec, in soup: String) -> StoreObservation<[JSONValue]> {
        StoreObservation(store: self, soups: .success([soup]), offloads: true) { view throws(StockpotError) in
            try view.query(spec, in: soup).rows
        }
    }

    /// Observes a Smart SQL statement: yields all of its rows (each the row's values, as
    /// ``StoreView/forEachSmartRow(_:arguments:budget:_:)`` gives them) at once, then again
    /// after each commit that changed a soup the statement reads (every `{soup}` of its
    /// `FROM` clauses, subqueries included). Results are computed on a Dispatch worker.
    ///
    /// - Parameters:
    ///   - sql: the statement.
    ///   - arguments: the values bound to its `?` placeholders.
    ///   - budget: the limits of each computation of the rows.
    /// - Returns: A sequence of row lists. It throws what the statement throws
    ///   (`smart_sql_syntax` at the first result, `soup_not_found`, `invalid_query`,
    ///   `resource_limit`).
    public func observe(
        smartSQL sql: String, arguments: [JSONValue] = [], budget: QueryBudget = .default
    ) -> StoreObservation<[[JSONValue]]> {
        StoreObservation(store: self, soups: Self.soupNames(ofStatement: sql), offloads: true) { view throws(StockpotError) in
            var rows: [[JSONValue]] = []
            try view.forEachSmartRow(sql, arguments: arguments, budget: budget) { row in
                rows.append(row)
                return true
            }
            return rows
        }
    }

    /// The soups Smart SQL statement `sql` reads, or its syntax error.
    private static func soupNames(ofStatement sql: String) -> Result<[String], StockpotError> {
        Result { () throws(StockpotError) -> [String] in
            do throws(QueryError) {
                return try SmartSQLQuery.soupNames(sql)
            } catch {
                throw StockpotError(error)
            }
        }
    }

    /// How many times commits woke an observer of this store since it opened: one per
    /// observer per commit that touched a soup it watches. For tests that check who is woken.
    package var observerWakes: Int {
        observers.wakes
    }
}
