// One `stockpot exec` conversation: turns each request line into one response line against
// an open store, and keeps the session's cursors. The operations are in the
// ExecSession+Soups, +Entries and +Queries slices; stats and compact are inline.

import Stockpot
import StockpotJSON

/// The state of one exec conversation: the store and the open cursors.
///
/// A failed request changes nothing the session keeps (no cursor is opened) and nothing in
/// the store (the store's own guarantee). Not thread-safe: one session per request stream.
package struct ExecSession {
    /// The open store.
    let store: Store
    /// The limits requests are read with (depth, line length).
    let jsonLimits: JSONLimits
    /// What one request may spend besides them.
    let budgets: ExecBudgets
    /// Open cursors by id.
    var cursors = CursorTable()
    /// When the request being performed must stop (its `timeoutMs`), nil for no time budget.
    var deadline: ContinuousClock.Instant?
    /// The server of the sync operations (`--sync-server`), nil when not given.
    let syncServer: String?

    /// Creates a session over an open store.
    package init(store: Store, jsonLimits: JSONLimits, budgets: ExecBudgets = ExecBudgets(), syncServer: String? = nil) {
        self.store = store
        self.jsonLimits = jsonLimits
        self.budgets = budgets
        self.syncServer = syncServer
    }

    /// The budget of a query run for the request being performed.
    var queryBudget: QueryBudget {
        QueryBudget(deadline: deadline, memoryBytes: budgets.statementMemoryBytes)
    }

    /// Throws `resource_limit` when the request's `timeoutMs` has passed: checked before every
    /// operation starts, as a read goes and once it is done, and before a write commits, so a
    /// request past it answers nothing else and changes nothing.
    func checkDeadline() throws(StockpotError) {
        guard let deadline, ContinuousClock.now >= deadline else { return }
        throw StockpotError(.resourceLimit, "The request ran past its timeoutMs and was stopped; nothing was changed.")
    }

    /// The response line for one request line.
    package mutating func respond(to line: [UInt8]) -> [UInt8] {
        let request: Request
        do {
            request = try Request(line: line, limits: jsonLimits)
        } catch {
            return Response.failure(id: error.id, error: error.error)
        }
        do {
            return Response.success(id: request.id, result: try perform(request))
        } catch {
            return Response.failure(id: request.id, error: error)
        }
    }

    /// The response line for a request line longer than the limit, which was not kept.
    package func respondToOverlongLine(byteCount: Int) -> [UInt8] {
        Response.failure(
            id: .null,
            error: StockpotError(
                .badRequest,
                "The request line is \(byteCount) bytes, over the limit of \(jsonLimits.maxInputBytes)."))
    }

    /// Whether a line holds only white space (and is skipped without a response).
    package static func isBlank(_ line: [UInt8]) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// Runs one request.
    ///
    /// - Returns: the `result` of the response.
    /// - Throws: the failure to report.
    mutating func perform(_ request: Request) throws(StockpotError) -> JSONValue {
        let arguments = request.arguments
        deadline = nil
        if let timeout = try arguments.optionalInteger("timeoutMs") {
            guard (1...ExecBudgets.maxTimeoutMs).contains(timeout) else {
                throw StockpotError(
                    .badRequest, "The argument \"timeoutMs\" must be from 1 to \(ExecBudgets.maxTimeoutMs), not \(timeout).")
            }
            deadline = .now + .milliseconds(timeout)
        }
        defer { deadline = nil }
        try checkDeadline()
        return try dispatch(request.op, arguments)
    }

    /// Runs operation `op`. Each one checks the deadline again before it changes anything:
    /// a write before its transaction commits, a query before it opens a cursor, and a read
    /// (here) before it answers.
    private mutating func dispatch(_ op: String, _ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        switch op {
        case "registerSoup": return try registerSoup(arguments)
        case "soupExists": return try answer(try soupExists(arguments))
        case "getAllSoupNames": return try answer(.array(store.allSoupNames().map { .string($0) }))
        case "getSoupIndexSpecs": return try answer(try soupIndexSpecs(arguments))
        case "alterSoup": return try alterSoup(arguments)
        case "reIndexSoup": return try reIndexSoup(arguments)
        case "clearSoup": return try clearSoup(arguments)
        case "removeSoup": return try removeSoup(arguments)
        case "upsertSoupEntries": return try upsertSoupEntries(arguments)
        case "retrieveSoupEntries": return try retrieveSoupEntries(arguments)
        case "removeFromSoup": return try removeFromSoup(arguments)
        case "querySoup": return try querySoup(arguments)
        case "runSmartQuery": return try runSmartQuery(arguments)
        case "countQuery": return try countQuery(arguments)
        case "moveCursorToPageIndex": return try moveCursorToPageIndex(arguments)
        case "closeCursor": return try closeCursor(arguments)
        case "hello": return try answer(hello())
        case "explainQuery": return try answer(try explainQuery(arguments))
        case "stats": return try answer(try store.stats().jsonValue)
        // A compaction changes no entry; one that ends past the deadline is kept.
        case "compact": return try answer(try store.compact().jsonValue)
        case "getLastSeq": return try answer(.integer(Int64(bitPattern: store.lastSequence)))
        case "getChanges": return try answer(try getChanges(arguments))
        case "purgeTombstones": return try purgeTombstones(arguments)
        case "syncDown": return try answer(try sync(.syncDown, arguments))
        case "syncUp": return try answer(try sync(.syncUp, arguments))
        case "reSync": return try answer(try sync(.reSync, arguments))
        case "cleanResyncGhosts": return try answer(try sync(.cleanResyncGhosts, arguments))
        case "getSyncStatus": return try answer(try syncStatus(arguments))
        default:
            throw StockpotError(.unknownOp, "The operation \"\(op)\" does not exist.")
        }
    }

    /// `result`, unless the request's deadline has passed while it was made.
    private func answer(_ result: JSONValue) throws(StockpotError) -> JSONValue {
        try checkDeadline()
        return result
    }

    /// The required `soupName` argument.
    ///
    /// - Throws: `invalid_soup_name` when it is missing, empty or longer than the store's
    ///   limit (for every operation, `soupExists` and `removeSoup` included), `bad_request`
    ///   when it is not a string.
    func soupName(_ arguments: ArgumentReader) throws(StockpotError) -> String {
        guard let name = try arguments.optionalString("soupName") else {
            throw StockpotError(.invalidSoupName, "The argument \"soupName\" is missing.")
        }
        try IndexSpec.validateSoupName(name, limits: store.options.limits)
        return name
    }
}
