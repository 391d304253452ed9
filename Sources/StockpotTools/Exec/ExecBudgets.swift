// The budgets of one exec request besides the JSON limits: entries per write request, the
// memory of a Smart SQL statement, and the optional `timeoutMs` of a request
// (docs/protocol.md, "Limits").

import Stockpot

/// What one exec request may spend. A value type; safe to share.
package struct ExecBudgets: Sendable, Hashable {
    /// Most entries in one `upsertSoupEntries` request (`limit_exceeded` past it): with the
    /// per-entry cost of a write, what bounds a write request's memory.
    var maxRequestEntries = 100_000
    /// Most changes one `getChanges` page may ask for (`bad_request` past it): a page holds
    /// its documents, so this and the document limit bound its memory.
    static let maxChangesPerPage = 100_000
    /// Most bytes of rows a Smart SQL statement holds at once (`resource_limit` past it).
    var statementMemoryBytes = QueryBudget.defaultMemoryBytes
    /// Longest `timeoutMs` a request may give (a day).
    static let maxTimeoutMs: Int64 = 86_400_000
}
