// sql.budget-*: the Smart SQL statements a hostile or careless caller can send, against their
// budgets (docs/cli.md, "Limits"; docs/smart-sql.md, "Budgets"): ORDER BY ... LIMIT 3 over a
// 3,000 x 3,000 join (a bounded heap, not 9 million rows held), an IN list of 1,000,000
// constants over 3,000 rows (hashed once), and a three-soup count(*) cross join under a 2 s
// time budget (stopped with resource_limit). The first two run against SQLite on plain tables
// holding the same values.

import Foundation
import Stockpot
import StockpotJSON

struct SQLBudgetWorkload: Workload {
    enum Case: String, CaseIterable {
        case orderLimit = "order-limit"
        case inList = "in-list"
        case crossJoin = "cross-join"
    }

    let statement: Case
    var name: String { "sql.budget-" + statement.rawValue }
    var summary: String {
        switch statement {
        case .orderLimit: "ORDER BY ... LIMIT 3 over a 3,000 x 3,000 join (ms; peak RSS growth in extras)"
        case .inList: "count(*) with an IN list of 1,000,000 constants over 3,000 rows (ms)"
        case .crossJoin: "a three-soup count(*) cross join under a 2 s budget: time to resource_limit (ms)"
        }
    }

    static let all = Case.allCases.map { SQLBudgetWorkload(statement: $0) }

    static let rows = 3_000
    static let budgetMilliseconds = 2_000.0

    func run(in context: BenchContext) throws -> BenchResult {
        let directory = try ScratchDirectory(label: "sql-budget")
        defer { directory.remove() }
        var options = StoreOptions()
        options.durability = .none
        let store = try Store.open(directory: directory.path + "/store", options: options)
        defer { try? store.close() }
        let sqlite = try SQLiteDatabase(path: directory.path + "/baseline.sqlite")
        for soup in ["a", "b", "c"] {
            try store.registerSoup(soup, indexSpecs: [IndexSpec(path: "k", type: .integer)])
            let entries: [JSONValue] = (0..<Self.rows).map { ["k": .integer(Int64($0)), "t": .string("text \(($0 * 7_919) % Self.rows)")] }
            _ = try store.upsert(entries, into: soup)
            try sqlite.execute("CREATE TABLE \(soup) (k INTEGER, t TEXT); BEGIN")
            let insert = try sqlite.prepare("INSERT INTO \(soup) VALUES (?, ?)")
            for number in 0..<Self.rows {
                try insert.bind([.integer(Int64(number)), .text("text \((number * 7_919) % Self.rows)")])
                _ = try insert.step()
                insert.reset()
            }
            try sqlite.execute("COMMIT")
        }
        switch statement {
        case .orderLimit:
            let smart = "SELECT {a:k}, {b:k} FROM {a}, {b} ORDER BY {a:t}, {b:t}, {a:k}, {b:k} LIMIT 3"
            let plain = "SELECT a.k, b.k FROM a, b ORDER BY a.t, b.t, a.k, b.k LIMIT 3"
            let peakBefore = Self.peakResidentBytes()
            let (rows, stockpotMs) = try Self.time { try store.smartQuery(smart, pageSize: 3).rows }
            let peakGrowth = Double(max(0, Self.peakResidentBytes() - peakBefore)) / 1e6
            let (expected, sqliteMs) = try Self.time { try sqlite.query(plain) }
            let same = rows.map { $0.arrayValue?.compactMap(\.integerValue) ?? [] } == expected.map { $0.compactMap(\.integerValue) }
            guard same else { throw BenchFailure("\(name): the two sides return different rows") }
            var result = BenchResult(
                workload: name, unit: .milliseconds, stockpot: stockpotMs, baseline: sqliteMs, baselineName: "SQLite",
                note: String(format: "peak RSS grew %.1f MB", peakGrowth))
            result.extras = [("peakResidentGrowthMB", peakGrowth)]
            return result
        case .inList:
            let constants = (0..<1_000_000).map { String($0 * 3) }.joined(separator: ",")
            let smart = "SELECT count(*) FROM {a} WHERE {a:t} IN (\(constants)) OR {a:k} IN (\(constants))"
            let plain = "SELECT count(*) FROM a WHERE a.t IN (\(constants)) OR a.k IN (\(constants))"
            let (count, stockpotMs) = try Self.time { try store.smartQuery(smart, pageSize: 1).rows.first?.arrayValue?.first?.integerValue }
            let (expected, sqliteMs) = try Self.time { try sqlite.scalar(plain).integerValue }
            guard count == expected else {
                throw BenchFailure("\(name): counts differ (\(String(describing: count)) vs \(String(describing: expected)))")
            }
            return BenchResult(workload: name, unit: .milliseconds, stockpot: stockpotMs, baseline: sqliteMs, baselineName: "SQLite")
        case .crossJoin:
            let smart = "SELECT count(*) FROM {a}, {b}, {c}"
            let budget = QueryBudget(deadline: .now + .milliseconds(Int(Self.budgetMilliseconds)))
            let started = ContinuousClock.now
            do {
                _ = try store.smartCount(smart, budget: budget)
                throw BenchFailure("\(name): 27 billion rows were counted within the budget")
            } catch let error as StockpotError where error.code == .resourceLimit {
                let elapsed = (ContinuousClock.now - started) / .milliseconds(1)
                return BenchResult(
                    workload: name, unit: .milliseconds, stockpot: elapsed, baseline: Self.budgetMilliseconds,
                    baselineName: "the 2 s budget", note: "stopped with resource_limit")
            }
        }
    }

    /// `body`'s result and its wall time in milliseconds.
    private static func time<R>(_ body: () throws -> R) rethrows -> (R, Double) {
        let started = ContinuousClock.now
        let result = try body()
        return (result, (ContinuousClock.now - started) / .milliseconds(1))
    }

    /// The process's peak resident set so far (getrusage's ru_maxrss, in bytes).
    private static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
}
