// Smart SQL within its budgets: ORDER BY ... LIMIT holds only its rows (the ties in the full
// sort's order), a statement past its memory budget (group_concat's text included) or
// deadline stops with resource_limit, and BETWEEN leaves its upper bound unevaluated once
// the lower one decides, as SQLite does.

import Stockpot
import Testing
import StockpotTestSupport

@Suite struct SmartSQLBudgetTests {
    /// Soups `a`, `b` (and `c`) of `count` entries `{"k": i, "m": i % 7}`, i from 1.
    static func withJoinSoups(count: Int, soups: [String] = ["a", "b"], _ body: (Store) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            for name in soups {
                try store.registerSoup(name, indexSpecs: [IndexSpec(path: "k", type: .integer)])
                try store.upsert((1...count).map { ["k": .integer(Int64($0)), "m": .integer(Int64($0 % 7))] }, into: name)
            }
            try body(store)
        }
    }

    static func rows(_ store: Store, _ sql: String, budget: QueryBudget = .default) throws -> [[JSONValue]] {
        var rows: [[JSONValue]] = []
        try store.forEachSmartRow(sql, budget: budget) { row in
            rows.append(row)
            return true
        }
        return rows
    }

    @Test func orderByWithLimitHoldsOnlyTheRowsItReturns() throws {
        try Self.withJoinSoups(count: 150) { (store: Store) throws in
            // 22,500 joined rows; the budget holds a few dozen.
            let small = QueryBudget(memoryBytes: 16 << 10)
            let sql = "SELECT {a:k}, {b:k} FROM {a}, {b} ORDER BY ({a:m} + {b:m}) % 5 DESC, {b:m} LIMIT 4 OFFSET 3"
            let limited = try Self.rows(store, sql, budget: small)
            // The same rows the full sort gives (its ties in the order rows were joined).
            let full = try Self.rows(store, "SELECT {a:k}, {b:k} FROM {a}, {b} ORDER BY ({a:m} + {b:m}) % 5 DESC, {b:m}")
            #expect(limited == Array(full[3..<7]))
            // The model: a in id order, then b in id order, stably sorted.
            var pairs: [(a: Int, b: Int)] = []
            for a in 1...150 { for b in 1...150 { pairs.append((a, b)) } }
            let sorted = pairs.enumerated().sorted { x, y in
                let (kx, ky) = (((x.element.a % 7) + (x.element.b % 7)) % 5, ((y.element.a % 7) + (y.element.b % 7)) % 5)
                if kx != ky { return kx > ky }
                if x.element.b % 7 != y.element.b % 7 { return x.element.b % 7 < y.element.b % 7 }
                return x.offset < y.offset
            }.map(\.element)
            #expect(limited == sorted[3..<7].map { [.integer(Int64($0.a)), .integer(Int64($0.b))] })
            // Without a LIMIT the same statement needs every row: past the budget.
            #expect(errorCode { _ = try Self.rows(store, "SELECT {a:k}, {b:k} FROM {a}, {b} ORDER BY {b:m}", budget: small) } == .resourceLimit)
        }
    }

    @Test(arguments: [(0, 1), (0, 10), (5, 3), (40, 7), (140, 20)])
    func limitedSortsAgreeWithTheFullSort(offset: Int, limit: Int) throws {
        try Self.withJoinSoups(count: 12) { (store: Store) throws in
            for order in ["{a:m} DESC", "{b:m}, {a:m} DESC", "({a:k} * {b:k}) % 4", "{a:k} - {b:k}"] {
                let sql = "SELECT {a:k}, {b:k} FROM {a}, {b} WHERE {a:k} <= {b:k} + 3 ORDER BY \(order)"
                let full = try Self.rows(store, sql)
                let limited = try Self.rows(store, sql + " LIMIT \(limit) OFFSET \(offset)")
                #expect(limited == Array(full.dropFirst(offset).prefix(limit)), "\(order) LIMIT \(limit) OFFSET \(offset)")
            }
        }
    }

    @Test func groupingAndDistinctPastTheMemoryBudgetStop() throws {
        try Self.withJoinSoups(count: 100) { (store: Store) throws in
            let small = QueryBudget(memoryBytes: 32 << 10)
            #expect(
                errorCode { _ = try Self.rows(store, "SELECT {a:k}, {b:k}, count(*) FROM {a}, {b} GROUP BY 1, 2", budget: small) } == .resourceLimit)
            #expect(errorCode { _ = try store.smartCount("SELECT DISTINCT {a:k}, {b:k} FROM {a}, {b}", budget: small) } == .resourceLimit)
            // Within the default budget both answer.
            #expect(try store.smartCount("SELECT DISTINCT {a:k}, {b:k} FROM {a}, {b}") == 10_000)
        }
    }

    @Test func groupConcatTextCountsAgainstTheMemoryBudget() throws {
        try Self.withJoinSoups(count: 100) { (store: Store) throws in
            // 10,000 joined rows of about 40 bytes each: 400 KB of text in one group.
            let sql = "SELECT group_concat(printf('%30d', {a:k} * {b:k})) FROM {a}, {b}"
            #expect(errorCode { _ = try Self.rows(store, sql, budget: QueryBudget(memoryBytes: 64 << 10)) } == .resourceLimit)
            let rows = try Self.rows(store, sql)
            #expect(rows.first?.first?.stringValue?.utf8.count == 10_000 * 31 - 1)
        }
    }

    @Test func aCrossJoinPastItsDeadlineStops() throws {
        try Self.withJoinSoups(count: 100, soups: ["a", "b", "c"]) { (store: Store) throws in
            // A million joined rows counted; the deadline has passed before the first.
            let expired = QueryBudget(deadline: .now - .seconds(1))
            #expect(errorCode { _ = try Self.rows(store, "SELECT count(*) FROM {a}, {b}, {c}", budget: expired) } == .resourceLimit)
            #expect(errorCode { _ = try store.smartCount("SELECT {a:k} FROM {a}, {b}, {c} WHERE {c:k} < 0", budget: expired) } == .resourceLimit)
            // A generous deadline lets a small one finish.
            #expect(try Self.rows(store, "SELECT count(*) FROM {a}, {b}", budget: QueryBudget(deadline: .now + .seconds(600))) == [[10_000]])
        }
    }

    @Test(arguments: ["{a:k}", "{a:m} + {a:k} - {a:m}"])
    func betweenLeavesItsUpperBoundUnevaluatedOnceTheLowerDecides(_ k: String) throws {
        try Self.withJoinSoups(count: 3, soups: ["a"]) { (store: Store) throws in
            // SQLite (3.40, with and without an index on k): k >= 5 is false for every row, so
            // abs(-2^63), an integer overflow, never runs.
            let overflow = "abs(-9223372036854775807 - 1)"
            #expect(try Self.rows(store, "SELECT {a:k} FROM {a} WHERE \(k) BETWEEN 5 AND \(overflow)") == [])
            #expect(try Self.rows(store, "SELECT {a:k} FROM {a} WHERE \(k) NOT BETWEEN 5 AND \(overflow) ORDER BY 1") == [[1], [2], [3]])
            // Once the lower bound holds for a row, the upper one is evaluated and fails, as in SQLite.
            #expect(errorCode { _ = try Self.rows(store, "SELECT {a:k} FROM {a} WHERE \(k) BETWEEN 2 AND \(overflow)") } == .invalidQuery)
            // A null lower bound: unknown AND (k <= 0) is false, so NOT of it holds for every row.
            #expect(try Self.rows(store, "SELECT {a:k} FROM {a} WHERE NOT (\(k) BETWEEN NULL AND 0)") == [[1], [2], [3]])
        }
    }

    @Test func caseEvaluatesOnlyTheBranchItChooses() throws {
        try Self.withJoinSoups(count: 3, soups: ["a"]) { (store: Store) throws in
            // SQLite 3.40: the ELSE that would overflow is never evaluated while a WHEN holds.
            let overflow = "abs(-9223372036854775807 - 1)"
            #expect(try Self.rows(store, "SELECT CASE WHEN {a:k} > 0 THEN {a:k} ELSE \(overflow) END FROM {a} ORDER BY 1") == [[1], [2], [3]])
            #expect(
                try Self.rows(store, "SELECT CASE {a:k} WHEN {a:k} THEN 'same' WHEN \(overflow) THEN 'no' END FROM {a}") == [
                    ["same"], ["same"], ["same"],
                ])
            // A WHEN reached is evaluated, and fails as in SQLite.
            #expect(
                errorCode { _ = try Self.rows(store, "SELECT CASE {a:k} WHEN 1 THEN 'a' WHEN \(overflow) THEN 'b' END FROM {a}") } == .invalidQuery)
        }
    }

    @Test func aLongInListOfConstantsAnswersAsAShortOne() throws {
        try Self.withJoinSoups(count: 50, soups: ["a"]) { (store: Store) throws in
            let list = (0..<20_000).map { String($0 * 5) }.joined(separator: ",")
            let rows = try Self.rows(store, "SELECT {a:k} FROM {a} WHERE {a:m} + {a:k} IN (\(list), NULL) ORDER BY 1")
            let expected = (1...50).filter { ($0 % 7 + $0) % 5 == 0 }.map { [JSONValue.integer(Int64($0))] }
            #expect(rows == expected)
            #expect(try store.smartCount("SELECT {a:k} FROM {a} WHERE {a:k} NOT IN (\(list), NULL)") == 0)
            #expect(try store.smartCount("SELECT {a:k} FROM {a} WHERE {a:k} NOT IN (\(list))") == 40)
        }
    }
}
