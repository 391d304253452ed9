// The budgets of one Smart SQL run: a deadline, checked cooperatively as rows are visited,
// and the bytes of rows, groups and hash tables the run may hold at once
// (docs/smart-sql.md, "Budgets"). Past either, the run stops with `resource_limit`.

/// What one run of a statement may spend. A value type; safe to share across threads.
package struct SQLBudget: Sendable {
    /// When the run must stop; nil for no time budget.
    package var deadline: ContinuousClock.Instant?
    /// The most bytes of result rows, groups, hash tables and subquery values held at once
    /// (an estimate: each value's payload plus a fixed overhead per value and per row).
    package var memoryBytes: Int

    /// A budget; by default no deadline and ``defaultMemoryBytes``.
    package init(deadline: ContinuousClock.Instant? = nil, memoryBytes: Int = SQLBudget.defaultMemoryBytes) {
        self.deadline = deadline
        self.memoryBytes = memoryBytes
    }

    /// 256 MiB.
    package static let defaultMemoryBytes = 256 << 20
}
