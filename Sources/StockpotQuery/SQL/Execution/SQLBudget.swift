// The budgets of one Smart SQL run: a deadline, checked cooperatively as rows are visited,
// and the bytes of rows, groups and hash tables the run may hold at once
// (docs/smart-sql.md, "Budgets"). Past either, the run stops with `resource_limit`. A run
// can also be cancelled from another thread (an async caller's task), checked at every row.

import Synchronization

/// What one run of a statement may spend. A value type; safe to share across threads.
package struct SQLBudget: Sendable {
    /// When the run must stop; nil for no time budget.
    package var deadline: ContinuousClock.Instant?
    /// The most bytes of result rows, groups, hash tables and subquery values held at once
    /// (an estimate: each value's payload plus a fixed overhead per value and per row).
    package var memoryBytes: Int

    /// When set and cancelled, the run stops at the next row it visits with `cancelled`.
    package var cancellation: SQLCancellation?

    /// A budget; by default no deadline and ``defaultMemoryBytes``.
    package init(
        deadline: ContinuousClock.Instant? = nil, memoryBytes: Int = SQLBudget.defaultMemoryBytes,
        cancellation: SQLCancellation? = nil
    ) {
        self.deadline = deadline
        self.memoryBytes = memoryBytes
        self.cancellation = cancellation
    }

    /// 256 MiB.
    package static let defaultMemoryBytes = 256 << 20
}

/// A flag another thread sets to stop a run. Thread-safe; compared by identity.
package final class SQLCancellation: Sendable, Hashable {
    private let flag = Atomic<Bool>(false)

    package init() {}

    /// Stops the runs that carry this flag, at their next row.
    package func cancel() { flag.store(true, ordering: .relaxed) }

    /// Whether ``cancel()`` was called.
    package var isCancelled: Bool { flag.load(ordering: .relaxed) }

    package static func == (left: SQLCancellation, right: SQLCancellation) -> Bool { left === right }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
