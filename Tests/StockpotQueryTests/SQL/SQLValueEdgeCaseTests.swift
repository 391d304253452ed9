// Pins the SQLite value rules the executor relies on, one behaviour per test, with the results
// SQLite 3.40 gives (checked with the sqlite3 shell when written).

import StockpotJSON
import Testing
@testable import StockpotQuery

@Suite struct SQLValueEdgeCaseTests {
    typealias V = SQLValue

    static func same(_ a: V, _ b: V) -> Bool { OracleResult.value(a).agrees(with: .value(b)) }

    @Test(arguments: [
        ("12abc", V.integer(12)), ("abc", .integer(0)), (" 12", .integer(12)), (" 12 ", .integer(12)),
        ("1e3", .real(1000)), ("0x10", .integer(0)), ("1.5x", .real(1.5)), ("1.", .real(1)),
        (".5", .real(0.5)), ("-", .integer(0)), ("+5", .integer(5)), ("1e", .integer(1)),
        ("3.0x", .real(3)), ("", .integer(0)), ("9223372036854775807", .integer(.max)),
        ("9223372036854775808", .real(9_223_372_036_854_775_808.0)),
    ])
    func textIsReadAsANumberForArithmetic(text: String, expected: V) {
        #expect(Self.same(V.arithmetic(.text(text), .add, .integer(0)), expected), "'\(text)' + 0")
    }

    @Test func integerOverflowTurnsReal() {
        #expect(Self.same(V.arithmetic(.integer(.max), .add, .integer(1)), .real(9_223_372_036_854_775_808.0)))
        #expect(Self.same(V.arithmetic(.integer(.min), .divide, .integer(-1)), .real(9_223_372_036_854_775_808.0)))
        #expect(Self.same(V.negate(.integer(.min)), .real(9_223_372_036_854_775_808.0)))
        #expect(Self.same(V.arithmetic(.integer(.min), .remainder, .integer(-1)), .integer(0)))
    }

    @Test func divisionTruncatesAndByZeroIsNull() {
        #expect(Self.same(V.arithmetic(.integer(5), .divide, .integer(2)), .integer(2)))
        #expect(Self.same(V.arithmetic(.integer(-7), .divide, .integer(2)), .integer(-3)))
        #expect(Self.same(V.arithmetic(.integer(5), .divide, .real(2)), .real(2.5)))
        #expect(V.arithmetic(.integer(5), .divide, .integer(0)).isNull)
        #expect(V.arithmetic(.real(5), .divide, .real(0)).isNull)
        #expect(V.arithmetic(.integer(5), .remainder, .integer(0)).isNull)
        #expect(V.arithmetic(.real(5), .remainder, .real(0.5)).isNull)
    }

    @Test func realRemainderIsTakenOnIntegers() {
        #expect(Self.same(V.arithmetic(.real(5.5), .remainder, .integer(2)), .real(1)))
        #expect(Self.same(V.arithmetic(.real(-7.5), .remainder, .integer(2)), .real(-1)))
        #expect(Self.same(V.arithmetic(.text("1e3"), .remainder, .integer(7)), .real(1)))
        #expect(Self.same(V.arithmetic(.real(1e19), .remainder, .integer(3)), .real(1)))
        #expect(Self.same(V.arithmetic(.integer(-7), .remainder, .integer(3)), .integer(-1)))
    }

    @Test func infinityMinusInfinityIsNull() {
        let infinity = V.arithmetic(.real(1e308), .multiply, .integer(10))
        #expect(Self.same(infinity, .real(.infinity)))
        #expect(V.arithmetic(infinity, .subtract, infinity).isNull)
        #expect(V.concatenate(infinity, .text("")) == .text("Inf"))
    }

    @Test(arguments: [
        (1.0, "1.0"), (1e20, "1.0e+20"), (0.1, "0.1"), (-0.0, "0.0"), (1e15, "1.0e+15"),
        (1e-5, "1.0e-05"), (123_456_789_012_345_678.0, "1.23456789012346e+17"), (100.0, "100.0"),
        (1.5e15, "1.5e+15"), (2.5e-300, "2.5e-300"), (-2.5, "-2.5"), (.infinity, "Inf"), (-.infinity, "-Inf"),
    ])
    func realsPrintAsSQLiteDoes(real: Double, text: String) {
        #expect(V.real(real).textValue == text)
    }

    @Test func comparisonsApplyColumnAffinity() {
        // A text column holding '1' against the literal 1: text affinity makes them equal.
        #expect(V.compare(.text("1"), .text, .equal, .integer(1), .none) == .true)
        // The same value with no affinity (a json1 path, an expression, `+a`) is not equal.
        #expect(V.compare(.text("1"), .none, .equal, .integer(1), .none) == .false)
        // An integer column against text that spells a number: numeric affinity.
        #expect(V.compare(.integer(1), .integer, .equal, .text("1"), .none) == .true)
        #expect(V.compare(.real(1), .real, .equal, .text(" 1 "), .none) == .true)
        #expect(V.compare(.real(1), .real, .equal, .text("1x"), .none) == .false)
        #expect(V.compare(.integer(9_007_199_254_740_993), .integer, .equal, .text("9007199254740993"), .none) == .true)
        // Text column against integer column: numeric applied to the text.
        #expect(V.compare(.text("1"), .text, .equal, .integer(1), .integer) == .true)
        // Two text columns: no conversion.
        #expect(V.compare(.text("1"), .text, .equal, .text("1.0"), .text) == .false)
        // Storage classes: numbers before text.
        #expect(V.compare(.integer(1), .none, .less, .text("0"), .none) == .true)
        #expect(V.compare(.null, .none, .equal, .null, .none) == .unknown)
        #expect(V.compare(.null, .none, .is, .null, .none) == .true)
        #expect(V.compare(.text("1"), .text, .is, .integer(1), .none) == .true)
        #expect(V.compare(.integer(1), .none, .isNot, .null, .none) == .true)
    }

    @Test func inUsesTheLeftOperandsAffinityOnly() {
        let textColumn = SQLAffinity.inList(left: .text)
        #expect(SQLInList([.integer(1)], affinity: textColumn).contains(.text("1")) == .true)
        #expect(SQLInList([.text("1")], affinity: .inList(left: .none)).contains(.integer(1)) == .false)
        #expect(SQLInList([.text("1")], affinity: .inList(left: .integer)).contains(.integer(1)) == .true)
        #expect(SQLInList([.null, .integer(2)], affinity: .none).contains(.integer(1)) == .unknown)
        #expect(SQLInList([.null, .integer(1)], affinity: .none).contains(.integer(1)) == .true)
        #expect(SQLInList([], affinity: .none).contains(.null) == .false)
        #expect(SQLInList([.integer(1)], affinity: .none).contains(.null) == .unknown)
        #expect(SQLInList([.real(1)], affinity: .none).contains(.integer(1)) == .true)
    }

    @Test func betweenComparesWithEachBoundsAffinity() {
        #expect(V.between(.text("1"), .text, low: .integer(0), .none, high: .integer(2), .none) == .true)
        #expect(V.between(.integer(1), .integer, low: .text("0"), .none, high: .text("2"), .none) == .true)
        #expect(V.between(.integer(5), .none, low: .null, .none, high: .integer(2), .none) == .false)
        #expect(V.between(.integer(1), .none, low: .null, .none, high: .integer(2), .none) == .unknown)
    }

    @Test func truthAndThreeValuedLogic() {
        #expect(V.text("abc").truth == .false)
        #expect(V.text("0.5").truth == .true)
        #expect(V.text("1abc").truth == .true)
        #expect(V.real(0).truth == .false)
        #expect(V.null.truth == .unknown)
        #expect((SQLTruth.unknown && .false) == .false)
        #expect((SQLTruth.unknown || .true) == .true)
        #expect((SQLTruth.unknown || .false) == .unknown)
        #expect(!SQLTruth.unknown == .unknown)
    }

    @Test func likeMatchesNumbersThroughTextAndChecksTheEscape() throws {
        #expect(try SQLLike.evaluate(.real(1), pattern: .text("1.0")) == .true)
        #expect(try SQLLike.evaluate(.integer(1), pattern: .integer(1)) == .true)
        #expect(try SQLLike.evaluate(.text("ab"), pattern: .text("\\a%"), escape: .text("\\")) == .true)
        #expect(try SQLLike.evaluate(.text("ab"), pattern: .text("ab\\"), escape: .text("\\")) == .false)
        #expect(try SQLLike.evaluate(.text("a_"), pattern: .text("a\\_"), escape: .text("\\")) == .true)
        #expect(try SQLLike.evaluate(.text("a"), pattern: .text("a"), escape: .null) == .unknown)
        #expect(try SQLLike.evaluate(.null, pattern: .text("a")) == .unknown)
        #expect(throws: SQLEvaluationError.self) { try SQLLike.evaluate(.text("a"), pattern: .text("a"), escape: .text("xy")) }
        #expect(throws: SQLEvaluationError.self) { try SQLLike.evaluate(.text("a"), pattern: .null, escape: .text("")) }
    }

    static func call(_ name: String, _ arguments: V...) throws -> V {
        guard case .scalar(let function) = try SQLFunctionCall.resolve(name: name, argumentCount: arguments.count) else {
            preconditionFailure("not a scalar")
        }
        return try function.evaluate(arguments)
    }

    @Test func scalarFunctionsGiveSQLiteResults() throws {
        #expect(try Self.same(Self.call("length", .real(1)), .integer(3)))
        #expect(try Self.same(Self.call("length", .text("héllo")), .integer(5)))
        #expect(try Self.call("length", .null).isNull)
        #expect(try Self.same(Self.call("upper", .text("héllo")), .text("HéLLO")))
        #expect(try Self.same(Self.call("LOWER", .text("ÀB")), .text("Àb")))
        #expect(try Self.same(Self.call("upper", .integer(5)), .text("5")))
        #expect(try Self.same(Self.call("abs", .text("12")), .real(12)))
        #expect(try Self.same(Self.call("abs", .integer(-5)), .integer(5)))
        #expect(throws: SQLEvaluationError.integerOverflow) { try Self.call("abs", .integer(.min)) }
        #expect(try Self.same(Self.call("round", .real(2.675), .integer(2)), .real(2.68)))
        #expect(try Self.same(Self.call("round", .real(1.005), .integer(2)), .real(1.01)))
        #expect(try Self.same(Self.call("round", .real(-2.5)), .real(-3)))
        #expect(try Self.same(Self.call("round", .integer(12)), .real(12)))
        #expect(try Self.same(Self.call("round", .real(1234.5678), .integer(-2)), .real(1235)))
        #expect(try Self.call("round", .real(1.5), .null).isNull)
        #expect(try Self.same(Self.call("substr", .text("hello"), .integer(0), .integer(2)), .text("h")))
        #expect(try Self.same(Self.call("substr", .text("hello"), .integer(-2)), .text("lo")))
        #expect(try Self.same(Self.call("substr", .text("hello"), .integer(3), .integer(-5)), .text("he")))
        #expect(try Self.same(Self.call("substr", .text("hello"), .integer(-10), .integer(7)), .text("he")))
        #expect(try Self.same(Self.call("substr", .text("héllo"), .integer(2), .integer(2)), .text("él")))
        #expect(try Self.same(Self.call("substr", .integer(12345), .integer(2), .integer(2)), .text("23")))
        #expect(try Self.same(Self.call("trim", .real(12), .text("0")), .text("12.")))
        #expect(try Self.same(Self.call("rtrim", .text("xxabxx"), .text("xa")), .text("xxab")))
        #expect(try Self.same(Self.call("trim", .text("éaé"), .text("é")), .text("a")))
        #expect(try Self.same(Self.call("replace", .integer(5), .text(""), .text("x")), .integer(5)))
        #expect(try Self.same(Self.call("replace", .text("aaa"), .text("aa"), .text("b")), .text("ba")))
        #expect(try Self.call("replace", .text("abc"), .text("b"), .null).isNull)
        #expect(try Self.same(Self.call("instr", .text("héllo"), .text("l")), .integer(3)))
        #expect(try Self.same(Self.call("instr", .text(""), .text("")), .integer(1)))
        #expect(try Self.same(Self.call("nullif", .text("1"), .integer(1)), .text("1")))
        #expect(try Self.call("nullif", .integer(1), .real(1)).isNull)
        #expect(try Self.same(Self.call("min", .integer(1), .real(1)), .real(1)))
        #expect(try Self.same(Self.call("max", .integer(1), .real(1)), .integer(1)))
        #expect(try Self.same(Self.call("max", .text("a"), .integer(2)), .text("a")))
        #expect(try Self.call("min", .integer(1), .null, .integer(0)).isNull)
        #expect(try Self.same(Self.call("typeof", .real(1)), .text("real")))
        #expect(try Self.same(Self.call("coalesce", .null, .integer(2), .integer(3)), .integer(2)))
    }

    @Test func functionLookupReportsSQLiteErrors() throws {
        #expect(try SQLFunctionCall.resolve(name: "MAX", argumentCount: 1) == .aggregate(.max))
        #expect(try SQLFunctionCall.resolve(name: "max", argumentCount: 3) == .scalar(.max))
        #expect(try SQLFunctionCall.resolve(name: "count", argumentCount: 0, star: true) == .aggregate(.countRows))
        #expect(SQLFunctionCall.isAggregateName("Sum"))
        #expect(!SQLFunctionCall.isAggregateName("upper"))
        for (name, count, message) in [
            ("foo", 1, "no such function: foo"), ("coalesce", 1, "wrong number of arguments to function coalesce()"),
            ("max", 0, "wrong number of arguments to function max()"), ("substr", 1, "wrong number of arguments to function substr()"),
            ("Count", 2, "wrong number of arguments to function Count()"), ("round", 3, "wrong number of arguments to function round()"),
        ] {
            #expect(throws: SQLEvaluationError.self) { try SQLFunctionCall.resolve(name: name, argumentCount: count) }
            do {
                _ = try SQLFunctionCall.resolve(name: name, argumentCount: count)
            } catch {
                #expect(error.message == message)
                #expect(QueryError(error).code == .invalidQuery)
            }
        }
    }

    @Test func orderingAndDistinctEquality() {
        let ordered: [V] = [
            .null, .real(-1e300), .integer(.min), .integer(-1), .real(-0.5), .integer(0), .real(0.5), .integer(1), .real(1e300), .text(""),
            .text("A"), .text("a"), .text("é"),
        ]
        for (i, a) in ordered.enumerated() {
            for (j, b) in ordered.enumerated() {
                #expect((V.compare(a, b) < 0) == (i < j) && (V.compare(a, b) == 0) == (i == j), "\(a) vs \(b)")
            }
        }
        #expect(V.integer(1) == V.real(1))
        #expect(V.integer(1).hashValue == V.real(1).hashValue)
        #expect(V.integer(9_007_199_254_740_993) != V.real(9_007_199_254_740_992))
        #expect(V.text("1") != V.integer(1))
        // "é" precomposed and decomposed are different bytes: different values.
        #expect(V.text("\u{E9}") != V.text("e\u{301}"))
        #expect(Set<V>([.text("\u{E9}"), .text("e\u{301}"), .integer(2), .real(2)]).count == 3)
    }

    @Test func conversionsToIndexAndJSONValues() {
        #expect(V(.double(1.5)) == .real(1.5))
        #expect(V(IndexValue.text("a")).indexValue == .text("a"))
        #expect(V.integer(3).jsonValue == .integer(3))
        #expect(V.real(.infinity).jsonValue == .null)
        #expect(V.text("x").jsonValue == .string("x"))
    }
}
