// Fixed Smart SQL cases with the rows SQLite gives for them (checked against SQLite 3.40.1 on
// the SmartStore translation), over two small hand-made soups. Every difference the
// differential test finds is pinned here, with its seed and query number, once fixed.

import Testing
@testable import Stockpot
import StockpotTestSupport

@Suite struct SmartSQLRegressionTests {
    /// Soup `s`: k integer, t string, f floating, j json1, u not indexed. Soup `o`: k integer,
    /// v string. Ids are 1, 2, 3 in `s` and 1, 2 in `o`.
    static func withSoups(_ body: (StoreView) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup(
                "s",
                indexSpecs: [
                    IndexSpec(path: "k", type: .integer), IndexSpec(path: "t", type: .string),
                    IndexSpec(path: "f", type: .floating), IndexSpec(path: "j", type: .json1),
                ])
            try store.registerSoup("o", indexSpecs: [IndexSpec(path: "k", type: .integer), IndexSpec(path: "v", type: .string)])
            try store.upsert(
                [
                    ["k": 12, "t": "12", "f": 1.5, "j": 12, "u": "12"],
                    ["k": "12", "t": 12, "f": "x", "j": "12", "u": 12],
                    ["k": 7, "t": "abc", "j": nil],
                ], into: "s")
            try store.upsert([["k": 12, "v": "a"], ["k": 5, "v": "b"]], into: "o")
            try body(store.view())
        }
    }

    static func rows(_ view: StoreView, _ sql: String, _ arguments: [JSONValue] = []) throws -> [[JSONValue]] {
        var rows: [[JSONValue]] = []
        try view.forEachSmartRow(sql, arguments: arguments) { row in
            rows.append(row)
            return true
        }
        return rows
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let sql: String
        let expected: [[JSONValue]]
        var testDescription: String { sql }
    }

    static let affinityCases: [Case] = [
        // An integer index holds 12 for entry 1 and null for entry 2 ("12" is text): the text
        // literal takes the column's INTEGER affinity.
        Case(sql: "SELECT {s:_soupEntryId} FROM {s} WHERE '12' = {s:k} ORDER BY 1", expected: [[1]]),
        // A string index holds "12" for both: the number takes the column's TEXT affinity.
        Case(sql: "SELECT {s:_soupEntryId} FROM {s} WHERE {s:t} = 12 ORDER BY 1", expected: [[1], [2]]),
        // Compared as text: '12' < '5' < 'abc'.
        Case(sql: "SELECT {s:_soupEntryId} FROM {s} WHERE {s:t} > 5 ORDER BY 1", expected: [[3]]),
        Case(sql: "SELECT {s:_soupEntryId} FROM {s} WHERE {s:f} = '1.5' ORDER BY 1", expected: [[1]]),
        // json1 and unindexed paths have no affinity: the string "12" never equals 12.
        Case(sql: "SELECT {s:_soupEntryId} FROM {s} WHERE {s:j} = '12' ORDER BY 1", expected: [[2]]),
        Case(sql: "SELECT {s:_soupEntryId} FROM {s} WHERE {s:u} = 12 ORDER BY 1", expected: [[2]]),
        Case(sql: "SELECT {s:_soupEntryId} FROM {s} WHERE {s:u} = ? ORDER BY 1", expected: [[1]]),
    ]

    @Test(arguments: affinityCases)
    func comparisonsFollowTheColumnAffinity(_ testCase: Case) throws {
        try Self.withSoups { view in
            let arguments: [JSONValue] = testCase.sql.contains("?") ? ["12"] : []
            let rows = try Self.rows(view, testCase.sql, arguments)
            #expect(rows == testCase.expected)
        }
    }

    static let leftJoinCases: [Case] = [
        Case(
            sql: "SELECT {s:_soupEntryId}, {o:v} FROM {s} LEFT JOIN {o} ON {s:k} = {o:k} ORDER BY 1",
            expected: [[1, "a"], [2, nil], [3, nil]]),
        Case(sql: "SELECT count(*), count({o:v}) FROM {s} LEFT JOIN {o} ON {s:k} = {o:k}", expected: [[3, 1]]),
        // A condition in ON only decides the partner; the left rows stay, then WHERE filters.
        Case(
            sql: "SELECT {s:_soupEntryId}, {o:_soupEntryId} FROM {s} LEFT JOIN {o} ON {s:k} = {o:k} AND {o:v} = 'b' "
                + "WHERE {o:_soupEntryId} IS NULL ORDER BY 1",
            expected: [[1, nil], [2, nil], [3, nil]]),
        // GROUP BY puts the null group first.
        Case(sql: "SELECT {s:k}, count(*) FROM {s} GROUP BY {s:k} ORDER BY 1", expected: [[nil, 1], [7, 1], [12, 1]]),
    ]

    @Test(arguments: leftJoinCases)
    func leftJoinsKeepUnmatchedRowsWithNulls(_ testCase: Case) throws {
        try Self.withSoups { view in
            let rows = try Self.rows(view, testCase.sql)
            #expect(rows == testCase.expected)
        }
    }
}
