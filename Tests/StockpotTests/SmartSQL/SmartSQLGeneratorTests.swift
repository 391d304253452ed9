// Checks on the Smart SQL generator itself, independent of Stockpot's engine: SQLite accepts
// every generated statement; the Stockpot text uses only the dialect (no SQLite table, column
// or function names leak into it); and a statement the generator calls totally ordered gives
// the same rows in the same order when SQLite scans its tables backwards
// (reverse_unordered_selects), while every statement gives the same multiset.
// STOCKPOT_SMARTSQL_GENERATOR_ROUNDS sets the number of statements (default 2,000).

import Foundation
import Testing
@testable import Stockpot
import StockpotTestSupport

@Suite struct SmartSQLGeneratorTests {
    @Test(arguments: [101, 102, 103] as [UInt64])
    func generatedStatementsAreValidAndDeterministicInSQLite(seed: UInt64) throws {
        let total = TestEnvironment.integer("STOCKPOT_SMARTSQL_GENERATOR_ROUNDS", default: 2_000)
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            let oracle = SQLiteOracle()
            let schema = try SmartSQLFixture.load(seed: seed, store: store, oracle: oracle)
            var generator = SmartSQLGenerator(seed: seed, schema: schema)
            var failures = 0
            for number in 0..<(total / 3 + 1) where failures < 5 {
                let testCase = SmartSQLCase(generator.statement(), schema: schema)
                let context = "seed \(seed) query \(number)\n  sqlite:   \(testCase.sqliteText)\n  stockpot: \(testCase.stockpotText)"
                // json_extract is a Smart SQL function too; a json1 path printed the SQLite way
                // still shows as `.soup` or `TABLE_`.
                for leak in ["TABLE_", "rowid", ".soup", ".id", "lastModified", ".created"]
                where testCase.stockpotText.contains(leak) {
                    Issue.record("SQLite name \(leak) in the Smart SQL text: \(context)")
                    failures += 1
                }
                oracle.execute("PRAGMA reverse_unordered_selects = OFF")
                let firstRun = testCase.expectedRows(oracle)
                guard case .success(let forward) = firstRun else {
                    if case .failure(let error) = firstRun { Issue.record("SQLite rejects: \(error.message): \(context)") }
                    failures += 1
                    continue
                }
                oracle.execute("PRAGMA reverse_unordered_selects = ON")
                guard case .success(let backward) = testCase.expectedRows(oracle) else {
                    Issue.record("SQLite rejects the statement on the second run: \(context)")
                    failures += 1
                    continue
                }
                let ordered = testCase.statement.totallyOrdered
                if !SmartSQLComparison.sameRows(forward, backward, ordered: ordered) {
                    let message =
                        "rows depend on scan order (\(ordered ? "claimed total" : "multiset")): \(context)\n"
                        + SmartSQLComparison.describe(forward) + "\n  backward:\n" + SmartSQLComparison.describe(backward)
                    Issue.record(Comment(rawValue: message))
                    failures += 1
                }
            }
        }
    }
}
