// Smart SQL on the store itself: each call runs on a fresh consistent view (StoreView+SmartQuery).

import Dispatch
import StockpotJSON
import StockpotQuery

extension Store {
    /// Runs a Smart SQL statement on the current state, calling `body` with each row until it
    /// returns false. See ``StoreView/forEachSmartRow(_:arguments:budget:_:)``.
    public func forEachSmartRow(
        _ sql: String, arguments: [JSONValue] = [], budget: QueryBudget = .default, _ body: ([JSONValue]) -> Bool
    ) throws(StockpotError) {
        try view().forEachSmartRow(sql, arguments: arguments, budget: budget, body)
    }

    /// One page of a Smart SQL statement's rows. See
    /// ``StoreView/smartQuery(_:arguments:page:pageSize:budget:)``.
    public func smartQuery(
        _ sql: String, arguments: [JSONValue] = [], page: Int = 0, pageSize: Int, budget: QueryBudget = .default
    ) throws(StockpotError) -> QueryPage {
        try view().smartQuery(sql, arguments: arguments, page: page, pageSize: pageSize, budget: budget)
    }

    /// The number of rows of a Smart SQL statement. See ``StoreView/smartCount(_:arguments:budget:)``.
    public func smartCount(
        _ sql: String, arguments: [JSONValue] = [], budget: QueryBudget = .default
    ) throws(StockpotError) -> Int {
        try view().smartCount(sql, arguments: arguments, budget: budget)
    }

    /// The names of a Smart SQL statement's result columns. See
    /// ``StoreView/smartColumnNames(_:arguments:)``.
    public func smartColumnNames(_ sql: String, arguments: [JSONValue] = []) throws(StockpotError) -> [String] {
        try view().smartColumnNames(sql, arguments: arguments)
    }

    /// ``smartQuery(_:arguments:page:pageSize:budget:)-56bsk``, off the caller's executor. When the task
    /// is cancelled, the statement stops at the next row it visits with `cancelled`.
    public func smartQuery(
        _ sql: String, arguments: [JSONValue] = [], page: Int = 0, pageSize: Int, budget: QueryBudget = .default
    ) async throws(StockpotError) -> QueryPage {
        try await offloadCancellable(budget) { (budget) throws(StockpotError) in
            try self.view().smartQuery(sql, arguments: arguments, page: page, pageSize: pageSize, budget: budget)
        }
    }

    /// ``smartCount(_:arguments:budget:)``, off the caller's executor; cancelled as
    /// ``smartQuery(_:arguments:page:pageSize:budget:)-9x6xt`` is.
    public func smartCount(
        _ sql: String, arguments: [JSONValue] = [], budget: QueryBudget = .default
    ) async throws(StockpotError) -> Int {
        try await offloadCancellable(budget) { (budget) throws(StockpotError) in
            try self.view().smartCount(sql, arguments: arguments, budget: budget)
        }
    }

    /// Runs `work` off the caller's executor with `budget` given a cancellation that the
    /// task's cancellation sets.
    private func offloadCancellable<R: Sendable>(
        _ budget: QueryBudget, _ work: @escaping @Sendable (QueryBudget) throws(StockpotError) -> R
    ) async throws(StockpotError) -> R {
        try await offloadCancellable { (cancellation) throws(StockpotError) -> R in
            var cancellable = budget
            cancellable.cancellation = cancellation
            return try work(cancellable)
        }
    }
}
