// Aggregates against SQLite's: count(*), count, sum, total, avg, min, max, with and without
// DISTINCT, over random columns of each affinity (and an untyped one holding mixed values),
// including sums that overflow.

import Testing
import StockpotTestSupport
@testable import StockpotQuery

@Suite struct SQLAccumulatorDifferentialTests {
    static let calls: [(String, SQLAggregateFunction, Bool)] = [
        ("count(*)", .countRows, false), ("count($)", .count, false), ("sum($)", .sum, false),
        ("total($)", .total, false), ("avg($)", .avg, false), ("min($)", .min, false),
        ("max($)", .max, false), ("count(DISTINCT $)", .count, true), ("sum(DISTINCT $)", .sum, true),
        ("avg(DISTINCT $)", .avg, true), ("total(DISTINCT $)", .total, true), ("min(DISTINCT $)", .min, true),
    ]

    @Test func randomColumnsAggregateAsSQLiteDoes() {
        let seed = SeededRandom.seedFromEnvironment()
        var values = SQLTestValues(seed: seed)
        let oracle = SQLiteValueOracle()
        var failures = 0
        var cases = 0
        for round in 0..<60 {
            oracle.execute("DROP TABLE IF EXISTS g")
            oracle.execute("CREATE TABLE g(a TEXT, b INTEGER, c REAL, d)")
            var rows: [[SQLValue]] = []
            let small = values.chance(2)
            for _ in 0..<values.random.below(30) {
                var row = values.row()
                if small, case .integer = row[1] { row[1] = .integer(Int64(values.random.below(7))) }
                if small, case .real = row[2] { row[2] = .real(Double(values.random.below(7)) / 2) }
                row.append(values.value())
                rows.append(row)
                _ = oracle.evaluate("INSERT INTO g VALUES (?, ?, ?, ?)", row)
            }
            for (column, name) in ["a", "b", "c", "d"].enumerated() {
                for (template, function, distinct) in Self.calls {
                    let call = template.replacingX(with: name)
                    let expected = oracle.evaluate("SELECT \(call) FROM g", [])
                    var accumulator = SQLAccumulator(function, distinct: distinct)
                    let actual: OracleResult
                    do {
                        for row in rows { try accumulator.add(row[column]) }
                        actual = .value(try accumulator.result())
                    } catch {
                        actual = .error(error.message)
                    }
                    cases += 1
                    if !actual.agrees(with: expected) {
                        failures += 1
                        if failures <= 10 {
                            Issue.record("seed \(seed) round \(round): \(call) over \(rows.map { $0[column] }): SQLite \(expected), ours \(actual)")
                        }
                    }
                }
            }
        }
        #expect(cases > 2_000)
        #expect(failures == 0, "seed \(seed): \(failures) differences (STOCKPOT_SEED=\(seed) reproduces)")
    }

    @Test func sumOverflowIsAnErrorButTotalAndAvgAreNot() throws {
        var sum = SQLAccumulator(.sum)
        var total = SQLAccumulator(.total)
        for value in [SQLValue.integer(.max), .integer(1), .integer(-5)] {
            try sum.add(value)
            try total.add(value)
        }
        #expect(throws: SQLEvaluationError.integerOverflow) { try sum.result() }
        #expect(try total.result() == .real(9_223_372_036_854_775_807.0))
    }

    @Test func emptyAggregatesHaveSQLiteResults() throws {
        #expect(try SQLAccumulator(.sum).result().isNull)
        #expect(try SQLAccumulator(.avg).result().isNull)
        #expect(try SQLAccumulator(.min).result().isNull)
        #expect(try SQLAccumulator(.countRows).result() == .integer(0))
        let total = try SQLAccumulator(.total).result()
        #expect(total.typeName == "real" && total == .real(0))
    }

    @Test func distinctKeepsTheFirstOfEqualValues() throws {
        var sum = SQLAccumulator(.sum, distinct: true)
        var count = SQLAccumulator(.count, distinct: true)
        for value in [SQLValue.real(1.0), .integer(1), .text("1")] {
            try sum.add(value)
            try count.add(value)
        }
        let result = try sum.result()
        #expect(result.typeName == "real" && result == .real(2))
        #expect(try count.result() == .integer(2))
    }
}

extension String {
    /// The template with its `$` argument replaced by a column name.
    fileprivate func replacingX(with column: String) -> String {
        split(separator: "$", omittingEmptySubsequences: false).joined(separator: column)
    }
}
