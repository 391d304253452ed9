// Differential test of the Smart SQL value layer against SQLite 3.40: seeded random values,
// operators and functions, with operands taken both as parameters (no affinity) and from the
// columns of t(a TEXT, b INTEGER, c REAL); each result compared in value and storage class.

import Testing
import StockpotTestSupport
@testable import StockpotQuery

@Suite struct SQLValueDifferentialTests {
    @Test func randomExpressionsAgreeWithSQLite() {
        let seed = SeededRandom.seedFromEnvironment()
        var values = SQLTestValues(seed: seed)
        let oracle = SQLiteValueOracle()
        var failures = 0
        for round in 0..<6_000 {
            let row = values.row()
            oracle.setRow(row)
            let expression = values.expression(depth: 1 + values.random.below(3), top: true)
            var parameters: [SQLValue] = []
            let sql = "SELECT " + expression.sql(&parameters) + " FROM t"
            let expected = oracle.evaluate(sql, parameters)
            let actual: OracleResult
            do {
                try expression.resolveFunctions()
                actual = .value(try expression.evaluate(row))
            } catch { actual = .error(error.message) }
            if !actual.agrees(with: expected) {
                failures += 1
                if failures <= 10 {
                    Issue.record("seed \(seed) round \(round): \(sql) with \(parameters), row \(row): SQLite \(expected), ours \(actual)")
                }
            }
        }
        #expect(failures == 0, "seed \(seed): \(failures) differences (STOCKPOT_SEED=\(seed) reproduces)")
    }

    @Test func realTextAgreesWithSQLite() {
        let seed = SeededRandom.seedFromEnvironment()
        var values = SQLTestValues(seed: seed)
        let oracle = SQLiteValueOracle()
        var failures = 0
        for round in 0..<3_000 {
            let real = values.real()
            let decimals = values.random.below(12)
            let spelled = SQLValue.text(values.chance(2) ? "\(real)" : SQLRealFormat.text(of: real))
            for (sql, argument, ours) in [
                ("SELECT ? || ''", SQLValue.real(real), SQLValue.concatenate(.real(real), .text(""))),
                ("SELECT round(?, \(decimals))", .real(real), SQLScalarFunction.round(.real(real), .integer(Int64(decimals)))),
                ("SELECT ? + 0", spelled, SQLValue.arithmetic(spelled, .add, .integer(0))),
            ] {
                let expected = oracle.evaluate(sql, [argument])
                if !OracleResult.value(ours).agrees(with: expected) {
                    failures += 1
                    if failures <= 10 { Issue.record("seed \(seed) round \(round): \(sql) with \(real): SQLite \(expected), ours \(ours)") }
                }
            }
        }
        #expect(failures == 0, "seed \(seed): \(failures) differences")
    }
}
