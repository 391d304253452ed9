// Random Smart SQL statements over a fixture's soups, covering semantics.md's whole dialect:
// FROM (one soup, comma joins, [INNER|LEFT [OUTER]|CROSS] JOIN ... ON, self-joins through
// aliases), plain, DISTINCT and aggregate (GROUP BY / HAVING) shapes, ORDER BY (expressions,
// aliases, column numbers, ASC/DESC) and LIMIT/OFFSET. Expressions are in
// SmartSQLGenerator+Expressions.swift. What SQLite leaves unspecified is never generated:
// bare columns in aggregate queries, LIMIT without a total ORDER BY, a DISTINCT or GROUP BY
// value that could be 1 or 1.0, sum overflow.

import StockpotTestSupport

struct SmartSQLGenerator {
    var random: SeededRandom
    let schema: SmartSQLSchema

    /// The largest product of the sizes of the soups in one FROM (scaled with the soups).
    static let maximumPairs = 2_500 * SmartSQLFixture.scale * SmartSQLFixture.scale

    init(seed: UInt64, schema: SmartSQLSchema) {
        random = SeededRandom(seed: seed &* 0x9E37_79B9 &+ 0xA5A5)
        self.schema = schema
    }

    // MARK: randomness

    mutating func below(_ bound: Int) -> Int { random.below(bound) }
    mutating func chance(_ percent: Int) -> Bool { random.below(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[random.below(items.count)] }

    // MARK: statements

    mutating func statement() -> GeneratedStatement {
        var tree = SQLSelectTree()
        if chance(2) {
            // No FROM: one row of constants (or none, when WHERE is false).
            tree.columns = (0..<(1 + below(3))).map { _ in (value([], depth: 2), nil) }
            if chance(30) { tree.whereCondition = condition([], depth: 1, allowSubquery: false) }
            return GeneratedStatement(select: tree, totallyOrdered: true, documentColumns: [])
        }
        var joinConditions: [SQLExpr] = []
        let scope = fromClause(&tree, commaConditions: &joinConditions)
        var conditions = joinConditions
        if chance(75) { conditions.append(condition(scope, depth: 1 + below(3), allowMatch: true)) }
        tree.whereCondition = conjunction(conditions)

        let shape = below(100)
        let totallyOrdered: Bool
        var documents: Set<Int> = []
        if shape < 25 {
            totallyOrdered = aggregateClauses(&tree, scope)
        } else if shape < 37 {
            totallyOrdered = distinctClauses(&tree, scope)
        } else {
            totallyOrdered = plainClauses(&tree, scope, documents: &documents)
        }
        // LIMIT only over a total order (an aggregate without GROUP BY is one row).
        let singleRow = shape < 25 && tree.groupBy.isEmpty
        if totallyOrdered && chance(singleRow ? 15 : 35) { limitClause(&tree) }
        return GeneratedStatement(select: tree, totallyOrdered: totallyOrdered, documentColumns: documents)
    }

    /// `FROM` with one to three soups; comma joins put their condition in `commaConditions`.
    mutating func fromClause(_ tree: inout SQLSelectTree, commaConditions: inout [SQLExpr]) -> [SQLSource] {
        let roll = below(100)
        let count = roll < 55 ? 1 : roll < 94 ? 2 : 3
        var aliases = ["x", "y", "z"].shuffled(using: &random)
        // Choose every soup first, so a soup that appears twice is qualified everywhere.
        var pairs = 1  // the rows a nested loop visits: kept under `maximumPairs`
        var sources: [SQLSource] = []
        for position in 0..<count {
            let affordable = schema.soups.filter { pairs * $0.entryCount <= Self.maximumPairs }.map(\.name)
            let chosen = sources.map(\.soup).filter { affordable.contains($0) }
            guard !affordable.isEmpty else { break }
            let soup = position > 0 && !chosen.isEmpty && chance(25) ? pick(chosen) : pick(affordable)  // 25%: a self-join
            pairs *= schema[soup].entryCount
            var source = SQLSource(soup: soup)
            if sources.contains(where: { $0.soup == soup }) || chance(35) { source.alias = aliases.removeLast() }
            sources.append(source)
        }
        for index in sources.indices {
            sources[index].mustQualify = sources.filter { $0.soup == sources[index].soup }.count > 1
        }
        var scope: [SQLSource] = []
        var items: [SQLFromItem] = []
        for (position, var source) in sources.enumerated() {
            guard position > 0 else {
                scope.append(source)
                items.append(SQLFromItem(source: source, kind: .first, on: nil))
                continue
            }
            let joinRoll = below(100)
            if joinRoll < 35 {
                items.append(SQLFromItem(source: source, kind: .comma, on: nil))
                scope.append(source)
                commaConditions.append(joinCondition(source, scope))
            } else {
                let left = joinRoll >= 70
                if left { source.nullable = true }
                let keywords =
                    left ? pick(["LEFT JOIN", "LEFT JOIN", "LEFT OUTER JOIN"]) : pick(["JOIN", "JOIN", "INNER JOIN", "CROSS JOIN"])
                scope.append(source)
                var on = joinCondition(source, scope)
                if chance(30) { on = .binary("AND", on, condition(scope, depth: 1)) }
                items.append(SQLFromItem(source: source, kind: .join(keywords), on: on))
            }
        }
        tree.from = items
        return scope
    }

    /// Mostly an equality on the shared key `k` with an earlier source, sometimes on other
    /// paths (whose types differ, so affinity decides) or an inequality.
    mutating func joinCondition(_ source: SQLSource, _ scope: [SQLSource]) -> SQLExpr {
        let others = scope.dropLast()
        let other = pick(Array(others))
        let roll = below(100)
        let mine: SQLExpr = roll < 75 ? key(source) : path(in: [source], system: false)
        let theirs: SQLExpr = roll < 60 ? key(other) : path(in: [other], system: false)
        let op = roll < 92 ? pick(["=", "=", "=="]) : pick(["<", ">="])
        return chance(50) ? .binary(op, mine, theirs) : .binary(op, theirs, mine)
    }

    mutating func key(_ source: SQLSource) -> SQLExpr {
        .path(source, "k", qualified: source.mustQualify || chance(60))
    }

    func conjunction(_ conditions: [SQLExpr]) -> SQLExpr? {
        guard var result = conditions.first else { return nil }
        for condition in conditions.dropFirst() { result = .binary("AND", result, condition) }
        return result
    }

    // MARK: shapes

    /// Select list of expressions; ORDER BY over anything, made total by every source's id.
    mutating func plainClauses(_ tree: inout SQLSelectTree, _ scope: [SQLSource], documents: inout Set<Int>) -> Bool {
        let count = 1 + below(4)
        for index in 0..<count {
            let roll = below(100)
            if roll < 5 && documents.isEmpty {
                let source = pick(scope)
                documents.insert(index)
                tree.columns.append((.path(source, "_soup", qualified: source.mustQualify || chance(30)), nil))
                continue
            }
            let value = roll < 45 ? path(in: scope) : self.value(scope, depth: 2)
            tree.columns.append((value, chance(30) ? "r\(index)" : nil))
        }
        guard chance(65) else { return false }
        for _ in 0..<(1 + below(2)) {
            let roll = below(100)
            let candidates = tree.columns.indices.filter { !documents.contains($0) }
            if roll < 25, let index = candidates.randomElement(using: &random) {
                tree.orderBy.append((resultReference(tree, index), direction()))
            } else {
                tree.orderBy.append((orderingValue(scope), direction()))
            }
        }
        guard chance(75) else { return false }
        for source in scope.shuffled(using: &random) {
            tree.orderBy.append((.path(source, "_soupEntryId", qualified: source.mustQualify || chance(30)), direction()))
        }
        return true
    }

    /// Stable columns only; ORDER BY result columns, total when it names them all.
    mutating func distinctClauses(_ tree: inout SQLSelectTree, _ scope: [SQLSource]) -> Bool {
        tree.distinct = true
        for index in 0..<(1 + below(3)) {
            tree.columns.append((stableValue(scope), chance(30) ? "r\(index)" : nil))
        }
        guard chance(60) else { return false }
        var order = Array(tree.columns.indices).shuffled(using: &random)
        let total = chance(60)
        if !total { order = Array(order.prefix(1 + below(order.count))) }
        for index in order { tree.orderBy.append((resultReference(tree, index), direction())) }
        return order.count == tree.columns.count
    }

    /// GROUP BY stable keys (or none: one row); the select list is keys and aggregates only.
    mutating func aggregateClauses(_ tree: inout SQLSelectTree, _ scope: [SQLSource]) -> Bool {
        let keyCount = pick([0, 0, 1, 1, 1, 2])
        let keys = (0..<keyCount).map { _ in stableValue(scope) }
        tree.groupBy = keys
        var keyColumns: [Int: Int] = [:]  // key index → column index
        for (index, key) in keys.enumerated() where chance(75) {
            keyColumns[index] = tree.columns.count
            tree.columns.append((key, chance(30) ? "r\(tree.columns.count)" : nil))
        }
        for _ in 0..<(1 + below(3)) {
            tree.columns.append((aggregateValue(scope, keys: keys), chance(30) ? "r\(tree.columns.count)" : nil))
        }
        if keyCount > 0 && chance(35) { tree.having = aggregateCondition(scope, keys: keys, depth: 1) }
        guard keyCount > 0 else { return true }
        guard chance(60) else { return false }
        let total = chance(60)
        var covered = Set<Int>()
        for index in Array(keys.indices).shuffled(using: &random) where total || chance(50) {
            if let column = keyColumns[index], chance(60) {
                tree.orderBy.append((resultReference(tree, column), direction()))
            } else {
                tree.orderBy.append((keys[index], direction()))
            }
            covered.insert(index)
            if chance(30) {  // an aggregate term between keys
                tree.orderBy.append((aggregateCall(scope), direction()))
            }
        }
        if tree.orderBy.isEmpty { tree.orderBy.append((aggregateCall(scope), direction())) }
        return covered.count == keys.count
    }

    /// Result column `index` by number, alias or its own expression.
    mutating func resultReference(_ tree: SQLSelectTree, _ index: Int) -> SQLExpr {
        let roll = below(3)
        if roll == 0, let alias = tree.columns[index].alias { return .alias(alias) }
        if roll == 1 && containsPath(tree.columns[index].expression) && !containsParameter(tree.columns[index].expression) {
            return tree.columns[index].expression
        }
        return .integer(Int64(index + 1))
    }

    mutating func direction() -> String? { pick([nil, "ASC", "DESC", "DESC"]) }

    mutating func limitClause(_ tree: inout SQLSelectTree) {
        let count: Int64 = chance(5) ? -1 : Int64(below(16))
        tree.limit = chance(15) ? .parameter(.integer(count)) : .integer(count)
        if chance(50) {
            let offset = Int64(below(9))
            tree.offset = chance(15) ? .parameter(.integer(offset)) : .integer(offset)
            tree.limitCommaForm = count >= 0 && chance(20)
        }
    }

    /// An ORDER BY expression: never a constant (SQLite reads an integer as a column number).
    mutating func orderingValue(_ scope: [SQLSource]) -> SQLExpr {
        let value = chance(50) ? path(in: scope) : self.value(scope, depth: 1)
        return containsPath(value) ? value : path(in: scope)
    }

    func containsPath(_ expression: SQLExpr) -> Bool {
        switch expression {
        case .path: return true
        case .unary(_, let child), .parenthesized(let child), .isNull(let child, _): return containsPath(child)
        case .binary(_, let left, let right): return containsPath(left) || containsPath(right)
        case .function(_, let arguments, _, _): return arguments.contains { containsPath($0) }
        case .caseWhen(let base, let branches, let otherwise):
            return base.map(containsPath) ?? false || otherwise.map(containsPath) ?? false
                || branches.contains { containsPath($0.0) || containsPath($0.1) }
        default: return false
        }
    }

    func containsParameter(_ expression: SQLExpr) -> Bool {
        switch expression {
        case .parameter: return true
        case .unary(_, let child), .parenthesized(let child), .isNull(let child, _): return containsParameter(child)
        case .binary(_, let left, let right): return containsParameter(left) || containsParameter(right)
        case .function(_, let arguments, _, _): return arguments.contains { containsParameter($0) }
        case .caseWhen(let base, let branches, let otherwise):
            return base.map(containsParameter) ?? false || otherwise.map(containsParameter) ?? false
                || branches.contains { containsParameter($0.0) || containsParameter($0.1) }
        default: return true  // conservative
        }
    }
}
