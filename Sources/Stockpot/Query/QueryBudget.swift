// The time and memory a Smart SQL statement may spend (docs/smart-sql.md, "Budgets"): a
// deadline checked as rows are visited, and the bytes of rows it may hold at once.

import StockpotQuery

/// The budget of one query run. Past the deadline or the memory budget the run stops with
/// `resource_limit`; a query changes nothing, so nothing is left half done.
///
/// A value type; safe to share across threads.
public struct QueryBudget: Sendable, Hashable {
    /// When the run must stop; nil for no time budget.
    public var deadline: ContinuousClock.Instant?
    /// The most bytes of result rows, groups, hash tables and subquery values the run holds at
    /// once (sorting, grouping, DISTINCT); an estimate of their size in memory.
    public var memoryBytes: Int

    /// A budget: by default no deadline and ``defaultMemoryBytes``.
    public init(deadline: ContinuousClock.Instant? = nil, memoryBytes: Int = QueryBudget.defaultMemoryBytes) {
        self.deadline = deadline
        self.memoryBytes = memoryBytes
    }

    /// No deadline and 256 MiB.
    public static let `default` = QueryBudget()

    /// 256 MiB.
    public static let defaultMemoryBytes = SQLBudget.defaultMemoryBytes

    /// Whether the deadline has passed.
    public var isExpired: Bool {
        deadline.map { ContinuousClock.now >= $0 } ?? false
    }

    /// Set by the async calls: cancelled when their task is.
    var cancellation: SQLCancellation?

    /// The engine's form.
    var sqlBudget: SQLBudget {
        SQLBudget(deadline: deadline, memoryBytes: memoryBytes, cancellation: cancellation)
    }

    /// The `resource_limit` error for a run past its deadline.
    static func expired() -> StockpotError {
        StockpotError(.resourceLimit, "The request ran past its time budget and was stopped; nothing was changed.")
    }
}

/// Stops a running Smart SQL statement from another thread, at the next row it visits (the
/// shell's Ctrl-C); the statement then fails with `cancelled`.
package final class QueryInterruption: Sendable {
    fileprivate let cancellation = SQLCancellation()

    package init() {}

    /// Stops the statements whose budget carries this interruption.
    package func interrupt() { cancellation.cancel() }
}

extension QueryBudget {
    /// This budget, with statements run under it stopped by `interruption`.
    package func interruptible(by interruption: QueryInterruption) -> QueryBudget {
        var budget = self
        budget.cancellation = interruption.cancellation
        return budget
    }
}
