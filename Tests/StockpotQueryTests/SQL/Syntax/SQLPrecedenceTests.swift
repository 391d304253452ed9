// Operator precedence and grouping, pinned two ways: groupings checked by hand against SQLite
// 3.40 (results noted beside them), and a seeded differential test that evaluates random
// operator soups over the parsed tree and compares with SQLite evaluating the same text.

import CSQLite
import Testing
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
@testable import StockpotQuery
import StockpotTestSupport

@Suite struct SQLPrecedenceTests {
    /// Each grouping was confirmed with sqlite3 3.40 (the value SQLite gives is in the comment).
    static let groupings: [(String, String)] = [
        ("1 = 1 < 2", "(= 1 (< 1 2))"),  // 1
        ("NOT 1 = 2", "(NOT (= 1 2))"),  // 1
        ("1 BETWEEN 0 AND 2 = 1", "(= (BETWEEN 1 0 2) 1)"),  // 1
        ("'a' || 1 + 2", "(+ (|| 'a' 1) 2)"),  // 2
        ("-2 * 3 || 'x'", "(* (- 2) (|| 3 'x'))"),  // -6
        ("1 + NOT 0 = 0", "(+ 1 (NOT (= 0 0)))"),  // 1
        ("5 - 3 - 1", "(- (- 5 3) 1)"),  // 1
        ("12 / 3 / 2", "(/ (/ 12 3) 2)"),  // 2
        ("7 % 4 * 2", "(* (% 7 4) 2)"),  // 6
        ("1 = 2 = 0", "(= (= 1 2) 0)"),  // 1
        ("3 < 2 < 1", "(< (< 3 2) 1)"),  // 1
        ("NOT 0 OR 1 AND 0", "(OR (NOT 0) (AND 1 0))"),  // 1
        ("NOT 0 AND 0", "(AND (NOT 0) 0)"),  // 0
        ("a OR b AND c OR d", "(OR (OR #a (AND #b #c)) #d)"),
        ("1 IN (1) IN (1)", "(IN (IN 1 [1]) [1])"),  // 1
        ("1 = - - 1", "(= 1 (- (- 1)))"),  // 1
        ("- 1 || 2", "(|| (- 1) 2)"),
        ("1 ISNULL = 0", "(= (ISNULL 1) 0)"),  // 1
        ("1 NOT NULL = 1", "(= (NOTNULL 1) 1)"),  // 1
        ("NULL IS NULL + 1", "(IS NULL (+ NULL 1))"),  // 1
        ("2 BETWEEN NOT 0 AND 3", "(BETWEEN 2 (NOT 0) 3)"),  // 1
        ("5 BETWEEN 1 = 1 AND 6", "(BETWEEN 5 (= 1 1) 6)"),  // 1
        ("1 BETWEEN 0 AND 2 BETWEEN 1 AND 1", "(BETWEEN (BETWEEN 1 0 2) 1 1)"),  // 1
        ("x BETWEEN a BETWEEN b AND c AND d", "(BETWEEN #x (BETWEEN #a #b #c) #d)"),
        ("x BETWEEN 0 AND 1 AND y", "(AND (BETWEEN #x 0 1) #y)"),
        ("x BETWEEN 0 AND NOT 1 = 1", "(BETWEEN #x 0 (NOT (= 1 1)))"),
        ("'x' LIKE 'X' ESCAPE 'a' = 0", "(= (LIKE 'x' 'X' ESCAPE 'a') 0)"),  // 0
        ("x LIKE a < b ESCAPE c || d", "(LIKE #x (< #a #b) ESCAPE (|| #c #d))"),
        ("x NOT LIKE y = 1", "(= (NOT LIKE #x #y) 1)"),
        ("x IS NOT NOT 1 = 1", "(IS NOT #x (NOT (= 1 1)))"),
        ("a = b IS c", "(IS (= #a #b) #c)"),
        ("a IS b = c", "(= (IS #a #b) #c)"),
        ("a IS b < c", "(IS #a (< #b #c))"),
        ("NOT a IN (1)", "(NOT (IN #a [1]))"),
        ("- a IN (1)", "(IN (- #a) [1])"),
        ("NOT NOT 1", "(NOT (NOT 1))"),
        ("- NOT 0 = 0", "(- (NOT (= 0 0)))"),
        ("1 * NOT 0 + 1", "(* 1 (NOT (+ 0 1)))"),
        ("{s} MATCH 'a' = 1", "(= (MATCH soup:s 'a') 1)"),
        ("{s:a} MATCH 'a' || 'b'", "(MATCH {s:a} (|| 'a' 'b'))"),
        ("NOT {s:a} MATCH 'a'", "(NOT (MATCH {s:a} 'a'))"),
        ("CASE WHEN 1 THEN 2 END + 1", "(+ (CASE (WHEN 1 2)) 1)"),
        ("(1 + 2) * 3", "(* (+ 1 2) 3)"),
        ("5 IS (1 NOT IN ())", "(IS (NOT (NOT 5)) 1)"),  // 1: SQLite reads NOT IN () as TRUE
        ("5 IS NOT (1 IN ())", "(IS NOT (NOT 5) 1)"),  // 1: and IN () as FALSE
    ]

    @Test(arguments: groupings)
    func groupsAsSQLite(_ text: String, _ expected: String) throws {
        #expect(try SQLTreeRendering.expression(text) == expected)
    }

    // MARK: - Differential evaluation against SQLite

    @Test func randomOperatorSoupsGroupAsSQLite() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        // STOCKPOT_SQL_SOUPS=n runs n soups instead of 4,000.
        let count = TestEnvironment.integer("STOCKPOT_SQL_SOUPS", default: 4000)
        print("SQLPrecedenceTests seed \(seed), \(count) soups")
        try compareRandomExpressions(seed: seed, count: count)
    }

    @Test func fixedSeedOperatorSoupsGroupAsSQLite() throws {
        try compareRandomExpressions(seed: 20240601, count: 4000)
    }

    func compareRandomExpressions(seed: UInt64, count: Int) throws {
        var random = SeededRandom(seed: seed)
        let oracle = try #require(ExpressionOracle())
        var compared = 0
        var bothRefused = 0
        for _ in 0..<count {
            let text = OperatorSoup.expression(&random, depth: 0)
            let sqlite = oracle.evaluate(text)
            let ours: Result<SQLExpression, SQLSyntaxError>
            do throws(SQLSyntaxError) {
                ours = .success(try SQLParser.parse("SELECT " + text).columns[0].expression)
            } catch {
                ours = .failure(error)
            }
            switch (ours, sqlite) {
            case (.failure, .none):
                bothRefused += 1
            case (.failure(let error), .some):
                Issue.record("seed \(seed): SQLite accepts `\(text)`, the parser refuses: \(error)")
            case (.success(let tree), .none):
                Issue.record("seed \(seed): the parser accepts `\(text)` as \(SQLTreeRendering.render(tree)), SQLite refuses")
            case (.success(let tree), .some(let expected)):
                guard let expected, let value = try? TreeEvaluator.evaluate(tree) else { continue }
                compared += 1
                #expect(value == expected, "seed \(seed): `\(text)` parsed as \(SQLTreeRendering.render(tree))")
            }
        }
        // The generator must mostly make statements both sides evaluate, or this shows nothing.
        #expect(compared > count / 2, "only \(compared) of \(count) compared (\(bothRefused) refused by both)")
    }
}

/// Random operator soups over small integers, strings, NULL, TRUE and FALSE.
enum OperatorSoup {
    static let binary = [
        "+", "-", "*", "/", "%", "||", "=", "==", "!=", "<>", "<", "<=", ">", ">=",
        "AND", "OR", "IS", "IS NOT", "IS NOT DISTINCT FROM", "LIKE", "NOT LIKE",
    ]
    static let postfix = [
        "ISNULL", "NOTNULL", "NOT NULL", "IS NULL", "IS NOT NULL", "IS TRUE", "IS FALSE",
        "IS NOT TRUE", "IS NOT FALSE",
    ]
    static let atoms = ["0", "1", "2", "3", "-1", "NULL", "'2'", "'a'", "'1a'", "TRUE", "FALSE"]

    static func expression(_ random: inout SeededRandom, depth: Int) -> String {
        var parts = [term(&random, depth: depth)]
        for _ in 0..<random.below(5) {
            switch random.below(12) {
            case 0:
                parts.append(
                    (random.below(3) == 0 ? "NOT " : "") + "BETWEEN " + term(&random, depth: depth)
                        + " AND " + term(&random, depth: depth))
            case 1:
                let items = (0..<random.below(4)).map { _ in term(&random, depth: depth + 1) }
                parts.append((random.below(3) == 0 ? "NOT " : "") + "IN (" + items.joined(separator: ", ") + ")")
            default: parts.append(binary[random.below(binary.count)] + " " + term(&random, depth: depth))
            }
        }
        return parts.joined(separator: " ")
    }

    static func term(_ random: inout SeededRandom, depth: Int) -> String {
        var text = ""
        for _ in 0..<(random.below(4) == 0 ? random.below(3) + 1 : 0) {
            text += ["-", "+", "NOT ", "- "][random.below(4)]
        }
        if depth < 3 && random.below(6) == 0 {
            text += "(" + expression(&random, depth: depth + 1) + ")"
        } else {
            text += atoms[random.below(atoms.count)]
        }
        if random.below(6) == 0 { text += " " + postfix[random.below(postfix.count)] }
        return text
    }
}

/// The value of an expression in the small dialect OperatorSoup writes.
enum Value: Equatable, CustomStringConvertible {
    case null, integer(Int64), text(String)
    var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): "\(value)"
        case .text(let text): "'\(text)'"
        }
    }
}

/// SQLite evaluating `SELECT <expression>`: nil when it refuses the text, .some(nil) when the
/// result is not an integer, text or null (a real, from an overflow).
final class ExpressionOracle {
    private var handle: OpaquePointer?

    init?() {
        guard sqlite3_open(":memory:", &handle) == SQLITE_OK else { return nil }
    }

    deinit { sqlite3_close(handle) }

    func evaluate(_ expression: String) -> Value?? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "SELECT " + expression, -1, &statement, nil) == SQLITE_OK,
            let statement
        else { return nil }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return .some(nil) }
        switch sqlite3_column_type(statement, 0) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, 0))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, 0)))
        default: return .some(nil)
        }
    }
}

/// Evaluates a tree with SQLite's meaning for the OperatorSoup dialect; throws when the result
/// would need a real (an overflow), which the comparison skips.
enum TreeEvaluator {
    struct NeedsReal: Error {}

    static func evaluate(_ expression: SQLExpression) throws(NeedsReal) -> Value {
        switch expression.kind {
        case .literal(.null): return .null
        case .literal(.integer(let value)): return .integer(value)
        case .literal(.text(let text)): return .text(text)
        case .unary(let op, let operandExpression):
            let operand = try evaluate(operandExpression)
            if operand == .null { return .null }
            switch op {
            case .plus: return operand
            case .negate:
                let (value, overflow) = Int64(0).subtractingReportingOverflow(try number(operand))
                if overflow { throw NeedsReal() }
                return .integer(value)
            case .not: return .integer(try truth(operand) ? 0 : 1)
            }
        case .binary(let op, let leftExpression, let rightExpression):
            let left = try evaluate(leftExpression)
            let right = try evaluate(rightExpression)
            return try binary(op, left, right)
        case .isNull(let operandExpression, let negated):
            return .integer((try evaluate(operandExpression) == .null) != negated ? 1 : 0)
        case .between(let operandExpression, let lowExpression, let highExpression, let negated):
            let operand = try evaluate(operandExpression)
            let inside = try binary(
                .and, try binary(.greaterOrEqual, operand, try evaluate(lowExpression)),
                try binary(.lessOrEqual, operand, try evaluate(highExpression)))
            return negated ? try not(inside) : inside
        case .inList(let operandExpression, let itemExpressions, let negated):
            if itemExpressions.isEmpty { return .integer(negated ? 1 : 0) }
            let operand = try evaluate(operandExpression)
            if operand == .null { return .null }
            var sawNull = false
            for itemExpression in itemExpressions {
                let item = try evaluate(itemExpression)
                if item == .null { sawNull = true } else if compare(operand, item) == 0 { return .integer(negated ? 0 : 1) }
            }
            return sawNull ? .null : .integer(negated ? 1 : 0)
        case .like(let operandExpression, let patternExpression, nil, let negated):
            // The soup's values hold no % or _: LIKE is equality ignoring ASCII case.
            let operand = try evaluate(operandExpression)
            let pattern = try evaluate(patternExpression)
            if operand == .null || pattern == .null { return .null }
            let same = text(operand).lowercased() == text(pattern).lowercased()
            return .integer(same != negated ? 1 : 0)
        default:
            fatalError("OperatorSoup writes no \(expression.kind)")
        }
    }

    static func not(_ value: Value) throws(NeedsReal) -> Value {
        value == .null ? .null : .integer(try truth(value) ? 0 : 1)
    }

    static func binary(_ op: SQLBinaryOperator, _ left: Value, _ right: Value) throws(NeedsReal) -> Value {
        switch op {
        case .and:
            if left != .null, try !truth(left) { return .integer(0) }
            if right != .null, try !truth(right) { return .integer(0) }
            return left == .null || right == .null ? .null : .integer(1)
        case .or:
            if left != .null, try truth(left) { return .integer(1) }
            if right != .null, try truth(right) { return .integer(1) }
            return left == .null || right == .null ? .null : .integer(0)
        case .isOperator, .isNot:
            let same = left == .null || right == .null ? left == right : compare(left, right) == 0
            return .integer(same == (op == .isOperator) ? 1 : 0)
        default:
            break
        }
        if left == .null || right == .null { return .null }
        switch op {
        case .equal: return .integer(compare(left, right) == 0 ? 1 : 0)
        case .notEqual: return .integer(compare(left, right) != 0 ? 1 : 0)
        case .less: return .integer(compare(left, right) < 0 ? 1 : 0)
        case .lessOrEqual: return .integer(compare(left, right) <= 0 ? 1 : 0)
        case .greater: return .integer(compare(left, right) > 0 ? 1 : 0)
        case .greaterOrEqual: return .integer(compare(left, right) >= 0 ? 1 : 0)
        case .concatenate: return .text(text(left) + text(right))
        default: break
        }
        let a = try number(left)
        let b = try number(right)
        let result: (Int64, Bool)
        switch op {
        case .add: result = a.addingReportingOverflow(b)
        case .subtract: result = a.subtractingReportingOverflow(b)
        case .multiply: result = a.multipliedReportingOverflow(by: b)
        case .divide:
            if b == 0 { return .null }
            result = a.dividedReportingOverflow(by: b)
        case .remainder:
            if b == 0 { return .null }
            result = a.remainderReportingOverflow(dividingBy: b)
        default: fatalError("not arithmetic: \(op)")
        }
        if result.1 { throw NeedsReal() }
        return .integer(result.0)
    }

    /// SQLite's order of values without affinity: integers before text, text by bytes.
    static func compare(_ left: Value, _ right: Value) -> Int {
        switch (left, right) {
        case (.integer(let a), .integer(let b)): a < b ? -1 : (a == b ? 0 : 1)
        case (.integer, .text): -1
        case (.text, .integer): 1
        case (.text(let a), .text(let b)):
            Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)) ? -1 : (a == b ? 0 : 1)
        default: fatalError("null compared")
        }
    }

    static func text(_ value: Value) -> String {
        switch value {
        case .integer(let number): "\(number)"
        case .text(let text): text
        case .null: ""
        }
    }

    /// The integer a value converts to (text: its leading integer, as SQLite reads it).
    static func number(_ value: Value) throws(NeedsReal) -> Int64 {
        guard case .text(let text) = value else {
            if case .integer(let number) = value { return number }
            return 0
        }
        var bytes = Array(text.utf8)[...]
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        let digits = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        if digits.count > 17 { throw NeedsReal() }
        if let next = bytes.dropFirst(digits.count).first, next == UInt8(ascii: ".") || next | 0x20 == UInt8(ascii: "e") {
            throw NeedsReal()
        }
        let magnitude = digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
        return negative ? -magnitude : magnitude
    }

    static func truth(_ value: Value) throws(NeedsReal) -> Bool {
        try number(value) != 0
    }
}
