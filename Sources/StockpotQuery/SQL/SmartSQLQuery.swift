// The entry point of Smart SQL: a statement's text, parsed once (cached), bound to a store's
// soups with its arguments, and run, its rows streamed to the caller.

import Foundation  // Thread, for the large stack of long statements
import StockpotJSON

/// Which path answered a Smart SQL statement: one of the compiled shortcuts
/// (`Execution/Shortcuts/`), which answer statements of one simple shape straight from indexes
/// and cached columns, or the general executor, which answers everything. Results are the same
/// whichever answers; the route is for tests and plans.
package enum SQLRoute: Sendable, Hashable {
    /// ``SQLIndexScan``: one soup, no condition, rows in an ordered index's order.
    case indexWalk
    /// ``SQLIndexJoin``: two soups joined by one equality, once their columns are cached.
    case indexJoin
    /// ``SQLExecutor``: the general nested-loop executor.
    case executor
}

/// Runs Smart SQL statements over a catalog of soups.
package enum SmartSQLQuery {
    /// Parsed statements by text, shared by every store.
    static let statements = SQLStatementCache()
    /// Bound statements by text, shared by every store (each run checks the schemas).
    static let prepared = SQLPreparedCache()

    /// Runs `text`, calling `body` with each row until it returns false.
    ///
    /// - Parameters:
    ///   - arguments: the values of the `?` placeholders, in order.
    ///   - budget: the run's deadline and memory budget (`resource_limit` past either).
    ///   - body: called with the row's values and the set of columns that are `{soup:_soup}`
    ///     documents (their values are the document's JSON text).
    /// - Throws: `smart_sql_syntax`, `read_only_statement`, `soup_not_found`,
    ///   `invalid_query`; read failures.
    @discardableResult
    package static func run(
        _ text: String, arguments: [SQLValue], catalog: some SQLCatalog, budget: SQLBudget = SQLBudget(),
        _ body: (_ row: [SQLValue], _ documentColumns: Set<Int>) throws(QueryError) -> Bool
    ) throws(QueryError) -> SQLRoute {
        try runEither(
            text, arguments: arguments, catalog: catalog, budget: budget,
            scanned: { (row: [SQLValue]) throws(QueryError) -> Bool in try body(row, []) }, body)
    }

    /// Runs `text` as ``run(_:arguments:catalog:_:)`` does, but a statement an index walk or
    /// index join answers (``SQLIndexScan``, ``SQLIndexJoin``) hands its rows to `scanned` as
    /// JSON values built straight from the indexes and columns (no row of SQL values in
    /// between); the executor's rows go to `body`.
    @discardableResult
    package static func run(
        _ text: String, arguments: [SQLValue], catalog: some SQLCatalog, budget: SQLBudget = SQLBudget(),
        scanned: (_ row: [JSONValue]) throws(QueryError) -> Bool,
        _ body: (_ row: [SQLValue], _ documentColumns: Set<Int>) throws(QueryError) -> Bool
    ) throws(QueryError) -> SQLRoute {
        try runEither(text, arguments: arguments, catalog: catalog, budget: budget, scanned: scanned, body)
    }

    /// The two entry points' shared body: generic, but inlined into each entry point, whose
    /// `Value` is concrete, so that the walk is specialized (a generic walk looks up type
    /// metadata for every row; the optimizer does not specialize `Value` alone while
    /// `Catalog` stays generic). The catalog is generic because, passed as an existential,
    /// the store's catalog (larger than an existential's inline buffer) would be boxed on the
    /// heap at every call.
    @inline(__always)
    private static func runEither<Value: SQLRowValue, Catalog: SQLCatalog>(
        _ text: String, arguments: [SQLValue], catalog: Catalog, budget: SQLBudget,
        scanned: (_ row: [Value]) throws(QueryError) -> Bool,
        _ body: (_ row: [SQLValue], _ documentColumns: Set<Int>) throws(QueryError) -> Bool
    ) throws(QueryError) -> SQLRoute {
        guard text.utf8.count > largeStackStatementBytes else {
            return try runHere(text, arguments: arguments, catalog: catalog, budget: budget, scanned: scanned, body)
        }
        // Binding and evaluating recurse once per level of the statement's tree, which the
        // parser lets reach 1,000 levels: more than a small thread stack holds. A long
        // statement (the only kind that can be that deep) runs on a thread of its own.
        var route = SQLRoute.executor
        try onLargeStack { () throws(QueryError) in
            route = try runHere(text, arguments: arguments, catalog: catalog, budget: budget, scanned: scanned, body)
        }
        return route
    }

    /// Statements longer than this (in UTF-8 bytes) run on a thread with a large stack.
    static let largeStackStatementBytes = 512
    /// The stack of that thread.
    static let largeStackBytes = 64 << 20

    /// The one place that chooses who answers: a prepared statement of a shortcut's shape
    /// goes to the shortcut, everything else (and a join whose columns are not cached yet) to
    /// the executor.
    @inline(__always)
    private static func runHere<Value: SQLRowValue, Catalog: SQLCatalog>(
        _ text: String, arguments: [SQLValue], catalog: Catalog, budget: SQLBudget,
        scanned unmetered: (_ row: [Value]) throws(QueryError) -> Bool,
        _ body: (_ row: [SQLValue], _ documentColumns: Set<Int>) throws(QueryError) -> Bool
    ) throws(QueryError) -> SQLRoute {
        if let explained = explainedStatement(text) {
            for line in try plan(explained, arguments: arguments, catalog: catalog) {
                let row: [SQLValue] = [.integer(Int64(line.id)), .integer(Int64(line.parent)), .integer(0), .text(line.detail)]
                guard try body(row, []) else { break }
            }
            return .executor
        }
        // Index walks and index joins spend the time budget per row they hand out.
        let meter = SQLBudgetMeter(budget)
        let scanned = { (row: [Value]) throws(QueryError) -> Bool in
            try meter.tick()
            return try unmetered(row)
        }
        if let statement = prepared.statement(for: text) {
            // An index walk reads one soup: no array of soups is built for it.
            if let scan = statement.indexScan, let soup = statement.onlySoup(in: catalog) {
                try SQLBinder.checkArgumentCount(arguments.count, placeholders: statement.placeholderCount)
                try scan.run(soup, as: Value.self, scanned)
                return .indexWalk
            }
            if statement.indexScan == nil, let soups = statement.soups(in: catalog) {
                try SQLBinder.checkArgumentCount(arguments.count, placeholders: statement.placeholderCount)
                if let join = statement.indexJoin, try join.run(soups, arguments: arguments, as: Value.self, scanned) {
                    return .indexJoin
                }
                try execute(statement, soups, arguments: arguments, budget: budget, body)
                return .executor
            }
        }
        let (statement, soups) = try bind(text, arguments: arguments, catalog: catalog)
        if let scan = statement.indexScan {
            try scan.run(soups[0], as: Value.self, scanned)
            return .indexWalk
        }
        if let join = statement.indexJoin, try join.run(soups, arguments: arguments, as: Value.self, scanned) { return .indexJoin }
        try execute(statement, soups, arguments: arguments, budget: budget, body)
        return .executor
    }

    /// Runs `statement` in the executor over `soups` (one per row slot).
    private static func execute(
        _ statement: SQLPreparedStatement, _ soups: [any SQLSoup], arguments: [SQLValue], budget: SQLBudget,
        _ body: (_ row: [SQLValue], _ documentColumns: Set<Int>) throws(QueryError) -> Bool
    ) throws(QueryError) {
        let executor = SQLExecutor(
            frame: RowFrame(slots: statement.slotCount, aggregates: statement.aggregateCount), soups: soups,
            arguments: arguments, budget: budget)
        let documentColumns = statement.select.documentColumns
        try executor.run(statement.select) { row throws(QueryError) -> Bool in try body(row, documentColumns) }
        executor.reportDemand()
    }

    /// `text` bound to `catalog` now (its prepared statement is missing or its soups changed),
    /// and kept unless binding used an argument's value; with the soup of each row slot.
    private static func bind(
        _ text: String, arguments: [SQLValue], catalog: some SQLCatalog
    ) throws(QueryError) -> (SQLPreparedStatement, [any SQLSoup]) {
        let select = try parse(text)
        var binder = SQLBinder(catalog: catalog, arguments: arguments)
        let bound = try binder.bindStatement(select)
        let statement = SQLPreparedStatement(select: bound, binder: binder)
        if !binder.dependsOnArguments { prepared.store(statement, for: text) }
        return (statement, binder.soups)
    }

    /// The statement after `EXPLAIN QUERY PLAN` (any case, any white space between the
    /// words) when `text` begins with those words.
    static func explainedStatement(_ text: String) -> String? {
        // Every statement run passes here: one that does not begin with an E costs one look.
        guard let first = text.utf8.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }),
            first | 0x20 == UInt8(ascii: "e")
        else { return nil }
        var rest = Substring(text)
        for word in ["EXPLAIN", "QUERY", "PLAN"] {
            rest = rest.drop { $0.isWhitespace }
            guard rest.count > word.count, rest.prefix(word.count).uppercased() == word,
                rest.dropFirst(word.count).first?.isWhitespace == true
            else { return nil }
            rest = rest.dropFirst(word.count)
        }
        return String(rest)
    }

    /// The names of an `EXPLAIN QUERY PLAN` statement's columns, as SQLite names them.
    static let planColumnNames = ["id", "parent", "notused", "detail"]

    /// The plan of `text` (without `EXPLAIN QUERY PLAN`): how each soup's rows would be found,
    /// and how grouping, DISTINCT and ORDER BY would be done (``SQLQueryPlan``). Parses and
    /// binds; runs nothing.
    package static func plan(_ text: String, arguments: [SQLValue], catalog: some SQLCatalog) throws(QueryError) -> [SQLPlanLine] {
        let (statement, _) = try bind(text, arguments: arguments, catalog: catalog)
        try SQLBinder.checkArgumentCount(arguments.count, placeholders: statement.placeholderCount)
        return SQLQueryPlan.lines(statement)
    }

    /// The names of `text`'s result columns: each column's alias, else its text as written
    /// (as SQLite names them). Parses and binds; runs nothing.
    package static func columnNames(_ text: String, arguments: [SQLValue], catalog: some SQLCatalog) throws(QueryError) -> [String] {
        if let explained = explainedStatement(text) {
            _ = try plan(explained, arguments: arguments, catalog: catalog)
            return planColumnNames
        }
        let select = try parse(text)
        var binder = SQLBinder(catalog: catalog, arguments: arguments)
        return try binder.bindStatement(select).columnNames
    }

    /// The number of rows `text` returns.
    package static func count(
        _ text: String, arguments: [SQLValue], catalog: some SQLCatalog, budget: SQLBudget = SQLBudget()
    ) throws(QueryError) -> Int {
        var count = 0
        try run(text, arguments: arguments, catalog: catalog, budget: budget) { _, _ in
            count += 1
            return true
        }
        return count
    }

    /// Runs `work` on a new thread with a ``largeStackBytes`` stack, and waits for it.
    private static func onLargeStack(_ work: () throws(QueryError) -> Void) throws(QueryError) {
        let failure: QueryError? = withoutActuallyEscaping(work) { work in
            let job = LargeStackJob {
                do throws(QueryError) {
                    try work()
                    return nil
                } catch {
                    return error
                }
            }
            let thread = Thread { job.run() }
            thread.stackSize = largeStackBytes
            thread.start()
            job.done.wait()
            return job.failure
        }
        if let failure { throw failure }
    }

    /// The parsed statement, from the cache when it was parsed before.
    static func parse(_ text: String) throws(QueryError) -> SQLSelect {
        do {
            return try statements.parse(text)
        } catch {
            throw QueryError(error.code == .readOnlyStatement ? .readOnlyStatement : .smartSQLSyntax, error.message)
        }
    }
}

/// Work handed to a thread while its caller waits. @unchecked Sendable: the caller blocks on
/// `done` from the start of the thread to its end, so the closure and `failure` are never
/// used by two threads at once.
private final class LargeStackJob: @unchecked Sendable {
    /// Dropped before `done` is signalled: the closure may not outlive the caller's wait
    /// (it comes from `withoutActuallyEscaping`), even while the thread is winding down.
    private var work: (() -> QueryError?)?
    private(set) var failure: QueryError?
    let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping () -> QueryError?) {
        self.work = work
    }

    func run() {
        failure = work?()
        work = nil
        done.signal()
    }
}
