// Seeded random values and expressions for the Smart SQL value differential tests: integers
// with their extremes, reals integral, huge, tiny and negative zero, and text that looks like
// numbers ("12", " 12", "1e3", "0x10", "12abc"), non-ASCII and empty.

@testable import StockpotQuery
import StockpotTestSupport

/// Draws values and expressions from a seeded generator.
struct SQLTestValues {
    var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    mutating func chance(_ n: Int) -> Bool { random.below(n) == 0 }
    mutating func pick<T>(_ items: [T]) -> T { items[random.below(items.count)] }

    static let integers: [Int64] = [
        0, 1, -1, 2, 3, -2, 7, -7, 10, 12, 100, 1000, -1000, 255, .max, .min, .max - 1, .min + 1,
        9_007_199_254_740_993, 4_503_599_627_370_497, 3_037_000_500, -3_037_000_500, 4_294_967_297,
    ]
    static let reals: [Double] = [
        0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.1, 0.2, 0.3, 1e20, 1e-5, 1.5e15, 1e15,
        1e16, 9.2e18, 9.3e18, -9.3e18, 1e300, -1e300, 2.675, 1.005, 0.15, 123.456, 3.14159,
        4_503_599_627_370_497.0, 9_223_372_036_854_775_807.0, 1e-300, Double.leastNonzeroMagnitude, 100.0, 7.0, 12.0,
        0.49999999999999994, 1.7976931348623157e308,
    ]
    static let texts: [String] = [
        "", "12", " 12", "12 ", " 12 ", "1e3", "0x10", "12abc", "abc", "ABC", "héllo", "Ünï", "-5",
        "+5", "1.5", ".5", "5.", "1e", "1e+", "3.0x", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "  ", "a%b", "a_c", "%", "_", "\\", "!",
        "1.0", "0.1", "é", "x", "a", "A", "%a%", "_b", "1", "0", "-0", "00012", "1e400", "-1e400",
        "1.5e-3", "9007199254740993", "12.0", "\t7\n", "😀", "ß", "abcabc", "b", "bc",
    ]

    mutating func integer() -> Int64 {
        switch random.below(4) {
        case 0: return Int64(random.below(41)) - 20
        case 1: return Int64(bitPattern: random.next()) >> Int64(random.below(64))
        default: return pick(Self.integers)
        }
    }

    mutating func real() -> Double {
        switch random.below(5) {
        case 0: return Double(Int64(random.below(2001)) - 1000) / Double(pick([1, 2, 4, 8, 10, 100, 1000, 3, 7]))
        case 1:
            let mantissa = Double(random.next() >> 11) / Double(1 << 53)
            let exponent = random.below(80) - 40
            return (chance(2) ? -1 : 1) * mantissa * pow10(exponent)
        case 2: return Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF) * (chance(2) ? 1 : -1)
        default: return pick(Self.reals)
        }
    }

    private func pow10(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<abs(exponent) { result *= 10 }
        return exponent < 0 ? 1 / result : result
    }

    mutating func text() -> String {
        switch random.below(6) {
        case 0: return String(integer())
        case 1: return SQLRealFormat.text(of: real())
        case 2:
            let alphabet = ["a", "B", "c", "é", " ", "1", "2", ".", "e", "-", "%", "_", "x", "😀"]
            return (0..<random.below(6)).map { _ in pick(alphabet) }.joined()
        default: return pick(Self.texts)
        }
    }

    /// Any value; NULL one time in eight.
    mutating func value() -> SQLValue {
        switch random.below(8) {
        case 0: return .null
        case 1, 2: return .integer(integer())
        case 3, 4: return .real(real())
        default: return .text(text())
        }
    }

    /// A row for t(a TEXT, b INTEGER, c REAL): each column's own kind, or NULL.
    mutating func row() -> [SQLValue] {
        [
            chance(6) ? .null : .text(text()),
            chance(6) ? .null : .integer(integer()),
            chance(6) ? .null : .real(real()),
        ]
    }

    mutating func leaf() -> SQLTestExpression {
        chance(2) ? .column(random.below(3)) : .parameter(value())
    }

    static let functions: [(String, ClosedRange<Int>)] = [
        ("lower", 1...1), ("upper", 1...1), ("length", 1...1), ("abs", 1...1), ("round", 1...2),
        ("substr", 2...3), ("trim", 1...2), ("ltrim", 1...2), ("rtrim", 1...2), ("replace", 3...3),
        ("coalesce", 2...4), ("ifnull", 2...2), ("nullif", 2...2), ("typeof", 1...1), ("instr", 2...2),
        ("min", 2...3), ("max", 2...3), ("UPPER", 1...1), ("Round", 1...2),
    ]

    /// A random expression at most `depth` operators deep. Only a `top` LIKE may have an
    /// invalid escape: SQLite folds constant parts of AND and OR when it prepares a statement,
    /// so whether an error nested under them is raised depends on its optimizer.
    mutating func expression(depth: Int, top: Bool = false) -> SQLTestExpression {
        if depth == 0 || chance(5) { return leaf() }
        let d = depth - 1
        switch random.below(17) {
        case 0:
            return .arithmetic(pick([.add, .subtract, .multiply, .divide, .remainder]), expression(depth: d), expression(depth: d))
        case 1:
            return .arithmetic(pick([.add, .subtract, .multiply, .divide, .remainder]), leaf(), leaf())
        case 2: return chance(2) ? .negate(expression(depth: d)) : .plus(expression(depth: d))
        case 3: return .concatenate(expression(depth: d), expression(depth: d))
        case 4, 5:
            return .compare(pick([.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .is, .isNot]), leaf(), leaf())
        case 6:
            return .compare(pick([.equal, .less, .greaterOrEqual, .is]), expression(depth: d), expression(depth: d))
        case 7: return chance(2) ? .and(expression(depth: d), expression(depth: d)) : .or(expression(depth: d), expression(depth: d))
        case 8: return chance(2) ? .not(expression(depth: d)) : .isNull(expression(depth: d), negated: chance(2))
        case 9: return .between(leaf(), leaf(), leaf(), negated: chance(3))
        case 10:
            // `IN ()` only at the top: SQLite turns an empty list into TRUE or FALSE when it
            // parses, so `x IS (y IN ())` means `x IS FALSE` (a truth test), not `x IS 0`.
            let count = top ? random.below(4) : 1 + random.below(3)
            return .inList(leaf(), (0..<count).map { _ in leaf() }, negated: chance(3))
        case 11:
            var escape: SQLTestExpression?
            if chance(3) {
                let escapes = top ? ["\\", "!", "a", "%", "é", "xy", ""] : ["\\", "!", "a", "%", "é"]
                escape = chance(8) && top ? .parameter(value()) : .parameter(chance(8) ? .null : .text(pick(escapes)))
            }
            let pattern: SQLTestExpression =
                chance(2) ? leaf() : .parameter(.text(pick(["%", "a%", "%1%", "_", "1_", "%é%", "A%", "\\%%", "!_%", "%!", "12%", "%.5", "ab"])))
            return .like(leaf(), pattern, escape: escape, negated: chance(3))
        case 12:
            let whens = (0..<(1 + random.below(3))).map { _ in (leaf(), expression(depth: d)) }
            return .simpleCase(leaf(), whens, chance(2) ? expression(depth: d) : nil)
        case 13:
            let whens = (0..<(1 + random.below(2))).map { _ in (expression(depth: d), leaf()) }
            return .searchedCase(whens, chance(2) ? leaf() : nil)
        default:
            let (name, counts) = pick(Self.functions)
            let count = chance(40) ? counts.upperBound + 1 : counts.lowerBound + random.below(counts.count)
            return .function(name, (0..<count).map { _ in chance(2) ? leaf() : expression(depth: d) })
        }
    }
}
