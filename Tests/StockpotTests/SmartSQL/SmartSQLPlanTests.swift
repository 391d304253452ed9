// EXPLAIN QUERY PLAN pinned for the planner's main shapes: a scan, index ranges and
// equalities, a hash lookup (an equality on a path with no index), the full-text index, a join and a LEFT JOIN, ORDER BY from an
// index, by a sort or a top-N heap, GROUP BY in index order or by hashing, DISTINCT, IN
// subqueries, an index walk, and a statement without FROM. The same lines come from
// `StoreView.explain(smartSQL:)`, from the statement run with EXPLAIN QUERY PLAN before it,
// and its column names are SQLite's.

import Stockpot
import StockpotTestSupport
import Testing

@Suite struct SmartSQLPlanTests {
    static func store(_ directory: TemporaryDirectory) throws -> Store {
        let store = try Store.open(directory: directory.path, options: fastOptions())
        try store.registerSoup(
            "acc",
            indexSpecs: [
                IndexSpec(path: "Name", type: .fullText), IndexSpec(path: "Industry", type: .string),
                IndexSpec(path: "Size", type: .integer), IndexSpec(path: "Id", type: .string),
            ])
        try store.registerSoup("con", indexSpecs: [IndexSpec(path: "AccountId", type: .string), IndexSpec(path: "Last", type: .string)])
        _ = try store.upsert([["Name": "Acme", "Industry": "Retail", "Size": 5, "Id": "a", "Note": "x"]], into: "acc")
        _ = try store.upsert([["AccountId": "a", "Last": "X"]], into: "con")
        return store
    }

    static let shapes: [(sql: String, plan: [String])] = [
        ("SELECT {acc:Name} FROM {acc}", ["SCAN acc"]),
        ("SELECT {acc:Name} FROM {acc} WHERE {acc:Note} = 'x'", ["SEARCH acc USING HASH LOOKUP ON Note (Note=?)"]),
        ("SELECT {acc:Name} FROM {acc} WHERE {acc:Note} > 'x'", ["SCAN acc"]),
        (
            "SELECT {acc:Name} FROM {acc} WHERE {acc:Size} > 3 AND {acc:Size} <= 10",
            ["SEARCH acc USING INDEX ON Size (Size>? AND Size<=?)"]
        ),
        (
            "SELECT {acc:Name} FROM {acc} WHERE {acc:Industry} = ? ORDER BY {acc:Name}",
            ["SEARCH acc USING INDEX ON Industry (Industry=?)", "USE SORT FOR ORDER BY"]
        ),
        (
            "SELECT {acc:Name} FROM {acc} WHERE {acc:Size} >= 1 ORDER BY {acc:Size}",
            ["SEARCH acc USING INDEX ON Size (Size>=?)", "ORDER BY IN INDEX ORDER"]
        ),
        ("SELECT {acc:Name} FROM {acc} ORDER BY {acc:Note} LIMIT 3", ["SCAN acc", "USE TOP-N HEAP FOR ORDER BY"]),
        ("SELECT {acc:Name} FROM {acc} WHERE {acc:Name} MATCH 'acme'", ["SEARCH acc USING FULL-TEXT INDEX (Name MATCH ?)"]),
        ("SELECT {acc:Name} FROM {acc} WHERE {acc:Note} = ? AND {acc:Size} + 0 = 5", ["SEARCH acc USING HASH LOOKUP ON Note (Note=?)"]),
        (
            "SELECT {acc:Industry}, count(*) FROM {acc} GROUP BY {acc:Industry}",
            ["SCAN acc USING INDEX ON Industry", "GROUP BY IN INDEX ORDER"]
        ),
        ("SELECT {acc:Note}, count(*) FROM {acc} GROUP BY {acc:Note}", ["SCAN acc", "USE HASH TABLE FOR GROUP BY"]),
        ("SELECT DISTINCT {acc:Note} FROM {acc}", ["SCAN acc", "USE HASH TABLE FOR DISTINCT"]),
        (
            "SELECT {acc:Name}, {con:Last} FROM {acc}, {con} WHERE {con:AccountId} = {acc:Id}",
            ["SCAN acc", "SEARCH con USING INDEX ON AccountId (AccountId=?)"]
        ),
        (
            "SELECT {acc:Name} FROM {acc} LEFT JOIN {con} ON {con:AccountId} = {acc:Id}",
            ["SCAN acc", "SEARCH con USING INDEX ON AccountId (AccountId=?) (LEFT JOIN)"]
        ),
        (
            "SELECT {acc:Name} FROM {acc} WHERE {acc:Id} IN (SELECT {con:AccountId} FROM {con} WHERE {con:Last} = 'X')",
            ["SCAN acc", "LIST SUBQUERY", "SEARCH con USING INDEX ON Last (Last=?)"]
        ),
        (
            "SELECT {acc:Industry} FROM {acc} ORDER BY {acc:Industry} DESC",
            ["SCAN acc USING INDEX ON Industry DESC (VALUES FROM INDEXES)"]
        ),
        ("SELECT 1 + 1", ["SCAN CONSTANT ROW"]),
    ]

    @Test func eachShapeHasItsPinnedPlan() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory)
        let view = store.view()
        for (sql, plan) in Self.shapes {
            let arguments: [JSONValue] = sql.contains("?") ? ["x"] : []
            let lines = try view.explain(smartSQL: sql, arguments: arguments)
            #expect(lines.map(\.detail) == plan, "\(sql)")
            // Run as a statement, the same lines in SQLite's four columns.
            let rows = try view.smartQuery("EXPLAIN QUERY PLAN " + sql, arguments: arguments, pageSize: 100).rows
            #expect(rows == lines.map { .array([.integer(Int64($0.id)), .integer(Int64($0.parent)), 0, .string($0.detail)]) }, "\(sql)")
        }
        try store.close()
    }

    @Test func aSubqueryLineIsTheParentOfItsPlan() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory)
        let lines = try store.view().explain(
            smartSQL: "SELECT {acc:Name} FROM {acc} WHERE {acc:Id} IN (SELECT {con:AccountId} FROM {con} WHERE {con:Last} = {acc:Note})")
        #expect(lines.map(\.id) == [1, 2, 3])
        #expect(lines.map(\.parent) == [0, 0, 2])
        #expect(lines[1].detail == "CORRELATED LIST SUBQUERY")
        try store.close()
    }

    @Test func explainedStatementsHaveSQLitesColumnsAndTheStatementsErrors() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory)
        let view = store.view()
        #expect(try view.smartColumnNames("explain  query\nplan SELECT {acc:Name} FROM {acc}") == ["id", "parent", "notused", "detail"])
        #expect(try view.smartCount("EXPLAIN QUERY PLAN SELECT {acc:Name} FROM {acc} ORDER BY {acc:Note}") == 2)
        for (sql, code) in [
            ("EXPLAIN QUERY PLAN SELECT {nowhere:k} FROM {nowhere}", StockpotError.Code.soupNotFound),
            ("EXPLAIN QUERY PLAN SELECT FROM", .smartSqlSyntax),
            ("EXPLAIN QUERY PLAN SELECT {acc:Name} FROM {acc} WHERE {acc:Size} = ?", .invalidQuery),
            ("EXPLAIN QUERY PLAN DELETE FROM {acc}", .readOnlyStatement),
        ] {
            #expect(throws: StockpotError.self, "\(sql)") { _ = try view.smartQuery(sql, pageSize: 10) }
            do {
                _ = try view.smartQuery(sql, pageSize: 10)
            } catch {
                #expect(error.code == code, "\(sql): \(error)")
            }
        }
        // EXPLAIN without QUERY PLAN is not a query.
        #expect(throws: StockpotError.self) { _ = try view.smartQuery("EXPLAIN SELECT 1", pageSize: 10) }
        try store.close()
    }
}
