// Spending one Smart SQL run's budget (SQLBudget): rows visited counted against the deadline,
// bytes held counted against the memory budget, `resource_limit` past either.

/// Spends one run's ``SQLBudget``. Not thread-safe: one per run, on the run's thread.
final class SQLBudgetMeter {
    let budget: SQLBudget
    /// Bytes held now.
    private(set) var heldBytes = 0
    /// Rows visited since the clock was last read.
    private var ticks = 0

    /// The clock is read once per this many ticks (a power of two).
    static let ticksPerClockRead = 1024

    init(_ budget: SQLBudget) {
        self.budget = budget
    }

    /// Counts one unit of work (a row visited); every ``ticksPerClockRead`` units, checks the
    /// deadline; every unit, the cancellation.
    ///
    /// - Throws: `resource_limit` when the deadline has passed; `cancelled` when the run was
    ///   cancelled.
    @inline(__always)
    func tick() throws(QueryError) {
        ticks &+= 1
        if ticks & (Self.ticksPerClockRead - 1) == 0 { try checkDeadline() }
        if let cancellation = budget.cancellation, cancellation.isCancelled { throw Self.cancelled }
    }

    /// The error of a cancelled run.
    static let cancelled = QueryError(.cancelled, "The statement was cancelled; nothing was changed.")

    /// Checks the deadline now.
    ///
    /// - Throws: `resource_limit` when it has passed.
    func checkDeadline() throws(QueryError) {
        guard let deadline = budget.deadline, ContinuousClock.now >= deadline else { return }
        throw QueryError(.resourceLimit, "The statement ran past its time budget and was stopped; nothing was changed.")
    }

    /// Takes `bytes` more of the memory budget.
    ///
    /// - Throws: `resource_limit` when the run would hold more than the budget.
    func hold(_ bytes: Int) throws(QueryError) {
        heldBytes += bytes
        guard heldBytes <= budget.memoryBytes else {
            throw QueryError(
                .resourceLimit,
                "The statement needs more than its memory budget of \(budget.memoryBytes) bytes for the rows it holds (sorting, grouping, DISTINCT or a hash table); nothing was changed."
            )
        }
    }

    /// Gives `bytes` back.
    func release(_ bytes: Int) {
        heldBytes -= bytes
    }

    /// The estimated bytes of a row of values held by the run.
    static func bytes(of values: [SQLValue]) -> Int {
        var total = rowOverhead
        for value in values { total += bytes(of: value) }
        return total
    }

    /// The estimated bytes of one value held by the run.
    @inline(__always)
    static func bytes(of value: SQLValue) -> Int {
        if case .text(let text) = value { return valueOverhead + text.utf8.count }
        return valueOverhead
    }

    /// The fixed estimate per held value (its enum) and per held row (its arrays).
    static let valueOverhead = 24
    static let rowOverhead = 64
}
