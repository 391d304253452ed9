// Differential test of Smart SQL against SQLite as the oracle: per seed, 2–3 random soups
// (every index type, unindexed paths, mixed and missing values) in Stockpot and in SmartStore's
// SQLite shape, and random statements over the whole dialect; every statement's rows must
// agree (in order when ORDER BY is total), and on a fraction smartCount and a smartQuery page
// too. STOCKPOT_SMARTSQL_ROUNDS sets the total number of statements (`make sql-soak`).

import Foundation
import Testing
@testable import Stockpot
import StockpotTestSupport

@Suite struct SmartSQLDifferentialTests {
    static let seeds: [UInt64] = Array(1...10)

    /// Statements per seed: STOCKPOT_SMARTSQL_ROUNDS (default 10,000) over all seeds.
    static var roundsPerSeed: Int {
        let total = TestEnvironment.integer("STOCKPOT_SMARTSQL_ROUNDS", default: 10_000)
        return (total + seeds.count - 1) / seeds.count
    }

    /// A seed stops after this many differences (STOCKPOT_SMARTSQL_MAX_DIFFERENCES, default 3).
    static var maximumDifferences: Int {
        TestEnvironment.integer("STOCKPOT_SMARTSQL_MAX_DIFFERENCES", default: 3)
    }

    /// STOCKPOT_SMARTSQL_ONLY=seed:query reruns one statement of a report (the others are
    /// still generated, so the stream is the same).
    static var only: (seed: UInt64, query: Int)? {
        let parts = (TestEnvironment.string("STOCKPOT_SMARTSQL_ONLY") ?? "").split(separator: ":")
        guard parts.count == 2, let seed = UInt64(parts[0]), let query = Int(parts[1]) else { return nil }
        return (seed, query)
    }

    @Test(arguments: seeds)
    func statementsAgreeWithSQLite(seed: UInt64) throws {
        let only = Self.only
        if let only, only.seed != seed { return }
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            let oracle = SQLiteOracle()
            let schema = try SmartSQLFixture.load(seed: seed, store: store, oracle: oracle)
            var generator = SmartSQLGenerator(seed: seed, schema: schema)
            var paging = SeededRandom(seed: seed ^ 0x00C0_FFEE)
            let view = store.view()
            var differences = 0
            for number in 0..<(only.map { $0.query + 1 } ?? Self.roundsPerSeed) {
                let testCase = SmartSQLCase(generator.statement(), schema: schema)
                if let only, only.query != number { continue }
                let expected: [[JSONValue]]
                switch testCase.expectedRows(oracle) {
                case .success(let rows): expected = rows
                case .failure(let error):
                    Issue.record(
                        "generator bug: SQLite rejects seed \(seed) query \(number): \(error.message)\n  \(testCase.sqliteText)\n  stockpot: \(testCase.stockpotText)"
                    )
                    return
                }
                let difference = Self.difference(testCase, expected: expected, view: view, paging: &paging, number: number)
                if let difference {
                    Issue.record(
                        Comment(
                            rawValue: SmartSQLComparison.report(
                                difference.title, seed: seed, number: number, testCase, expected: expected, actual: difference.actual)))
                    differences += 1
                    if differences >= Self.maximumDifferences {
                        Issue.record("seed \(seed): stopped after \(differences) differences")
                        return
                    }
                }
            }
        }
    }

    /// What Stockpot got wrong for one statement, or nil when it agrees with SQLite.
    static func difference(
        _ testCase: SmartSQLCase, expected: [[JSONValue]], view: StoreView, paging: inout SeededRandom, number: Int
    ) -> (title: String, actual: String)? {
        let arguments = testCase.arguments.map(\.json)
        var actual: [[JSONValue]] = []
        do {
            try view.forEachSmartRow(testCase.stockpotText, arguments: arguments) { row in
                actual.append(row)
                return actual.count <= expected.count + 1_000
            }
        } catch {
            return ("forEachSmartRow threw", "error \(error)")
        }
        let ordered = testCase.statement.totallyOrdered
        if !SmartSQLComparison.sameRows(expected, actual, ordered: ordered) {
            let detail =
                ordered && expected.count == actual.count
                ? SmartSQLComparison.firstDifference(expected, actual)
                : SmartSQLComparison.multisetDifference(expected, actual)
            return ("rows", "\(actual.count) rows\n" + SmartSQLComparison.describe(actual) + "\n" + detail)
        }
        // One statement in seven also goes through smartCount and one smartQuery page.
        guard number % 7 == 3 else { return nil }
        do {
            let count = try view.smartCount(testCase.stockpotText, arguments: arguments)
            if count != expected.count { return ("smartCount", "count \(count), expected \(expected.count)") }
            let pageSize = 1 + paging.below(7)
            let page = paging.below(expected.count / pageSize + 2)
            let result = try view.smartQuery(testCase.stockpotText, arguments: arguments, page: page, pageSize: pageSize)
            let start = min(page * pageSize, expected.count)
            let wanted = Array(expected[start..<min(start + pageSize, expected.count)])
            let rows = result.rows.map { $0.arrayValue ?? [$0] }
            let pageAgrees =
                ordered ? SmartSQLComparison.sameRows(wanted, rows, ordered: true) : rows.count == wanted.count
            if result.totalEntries != expected.count || !pageAgrees {
                return (
                    "smartQuery page \(page) of size \(pageSize)",
                    "totalEntries \(result.totalEntries), \(rows.count) rows\n" + SmartSQLComparison.describe(rows)
                        + "\n  expected page rows:\n" + SmartSQLComparison.describe(wanted)
                )
            }
        } catch {
            return ("smartCount/smartQuery threw", "error \(error)")
        }
        return nil
    }
}
