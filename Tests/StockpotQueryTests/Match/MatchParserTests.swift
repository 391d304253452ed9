// Pins the match-expression parser: FTS5 precedence, operator case, quoting, prefixes, column
// filters, the indexPath restriction, the lenient forms, and every malformed form's offset.

import StockpotIndex
import Testing
@testable import StockpotQuery

@Suite struct MatchParserTests {
    /// `{s:a}` is column 0, `{s:b}` 1, `{s:c}` 2; anything else is unknown.
    static func resolve(_ name: Substring) -> Int? {
        ["s:a": 0, "s:b": 1, "s:c": 2][String(name)]
    }

    static func parsed(_ text: String, restrictTo column: Int? = nil) throws -> String {
        try MatchExpression(parsing: text, restrictTo: column, resolveColumn: resolve).description
    }

    @Test(arguments: [
        ("a NOT b c", "NOT(a, AND(b, c))"),
        ("a NOT b AND c", "AND(NOT(a, b), c)"),
        ("Eva OR Haas NOT Ali", "OR(eva, NOT(haas, ali))"),
        ("a OR b AND c", "OR(a, AND(b, c))"),
        ("a AND b OR c", "OR(AND(a, b), c)"),
        ("a b OR c d", "OR(AND(a, b), AND(c, d))"),
        ("a NOT b NOT c", "NOT(a, b, c)"),
        ("(a NOT b) NOT c", "NOT(a, b, c)"),
        ("a NOT (b NOT c)", "NOT(a, NOT(b, c))"),
        ("a OR b OR c NOT x", "OR(a, b, NOT(c, x))"),
        ("a AND b AND c", "AND(a, b, c)"),
        ("a (b OR c)", "AND(a, OR(b, c))"),
        ("(a OR b) c", "AND(OR(a, b), c)"),
        ("(a OR b) AND c", "AND(OR(a, b), c)"),
        ("((a))", "a"),
        ("a NOT (b OR c) d", "NOT(a, AND(OR(b, c), d))"),
    ])
    func precedenceIsFTS5s(text: String, expected: String) throws {
        #expect(try Self.parsed(text) == expected, "\(text)")
    }

    @Test(arguments: [
        ("Christine NOt Haas", "AND(christine, not, haas)"),
        ("a and b", "AND(a, and, b)"),
        ("a Or b", "AND(a, or, b)"),
        ("\"AND\" a", "AND(and, a)"),
        ("NEAR a", "AND(near, a)"),
        ("ANDY ORE NOTE", "AND(andy, ore, note)"),
    ])
    func onlyUpperCaseOperatorsAreOperators(text: String, expected: String) throws {
        #expect(try Self.parsed(text) == expected, "\(text)")
    }

    @Test(arguments: [
        ("\"a b\"", "\"a b\""),
        ("\"Élan  VITAL\"", "\"elan vital\""),
        ("\"a \"\"b\"\" c\"", "\"a b c\""),
        ("\"a b\"*", "\"a b*\""),
        ("\"a b\" *", "\"a b*\""),
        ("a*", "a*"),
        ("a *", "a*"),
        ("Élan*", "elan*"),
        ("a*b", "AND(a*, b)"),
        ("a\"b\"", "AND(a, b)"),
        ("a+b", "\"a b\""),
        ("a + \"b c\"*", "\"a b c*\""),
        ("a* + b", "\"a* b\""),
        ("a* + —", "a"),
        ("a + —*", "a*"),
        ("e-mail", "\"e mail\""),
        ("don't", "\"don t\""),
        ("O'Reilly's", "\"o reilly s\""),
        ("a.b:c,d", "\"a b c d\""),
        ("a_b", "\"a b\""),
        ("x}y", "\"x y\""),
        ("'; DROP TABLE t; --", "AND(drop, table, t)"),
        ("^a", "^a"),
        ("a\u{0}b OR c", "a"),
        ("^ \"a b\"", "^\"a b\""),
    ])
    func wordsStringsAndPrefixesFoldIntoPhrases(text: String, expected: String) throws {
        #expect(try Self.parsed(text) == expected, "\(text)")
    }

    @Test(arguments: [
        ("a —", "a"),
        ("— a —", "a"),
        ("—", "\"\""),
        ("\"\"", "\"\""),
        ("a AND —", "AND(a, \"\")"),
        ("a OR —", "OR(a, \"\")"),
        ("*a** +", "a*"),
        ("a ^ AND b", "AND(a, b)"),
        ("+a", "a"),
    ])
    func emptyPhrasesAndStraysAreFTS5sOrIgnored(text: String, expected: String) throws {
        #expect(try Self.parsed(text) == expected, "\(text)")
    }

    @Test(arguments: [
        ("NEAR(a b)", "NEAR/10(a, b)"),
        ("x NEAR (a b, 3)", "AND(x, NEAR/3(a, b))"),
        ("NEAR(a b,5)", "NEAR/5(a, b)"),
        ("NEAR(a)", "a"),
        ("NEAR(\"a b\" c*, 0)", "NEAR/0(\"a b\", c*)"),
        ("NEAR(a+b c)", "NEAR/10(\"a b\", c)"),
        ("{s:a}:NEAR(a b)", "NEAR/10({0}:a, {0}:b)"),
        ("NEAR(a —) x", "AND(a, x)"),
        ("NEAR(— \"\") x", "x"),
        ("NEAR(a — b, 2)", "NEAR/2(a, b)"),
        ("a,b NEAR(c \",\")", "AND(\"a b\", c)"),
        ("a,b NEAR(c \",\" d)", "AND(\"a b\", NEAR/10(c, d))"),
        ("near(a b)", "AND(near, a, b)"),
        ("\"NEAR\"(a b)", "AND(near, a, b)"),
        ("NEAR OR NEAR", "OR(near, near)"),
    ])
    func nearGroupsAreFTS5s(text: String, expected: String) throws {
        #expect(try Self.parsed(text) == expected, "\(text)")
    }

    @Test(arguments: [
        ("{s:a}:x", "{0}:x"),
        ("{s:b} : x", "{1}:x"),
        ("{s:a}:\"x y\"", "{0}:\"x y\""),
        ("{s:a}:x*", "{0}:x*"),
        ("{s:a}:^x", "{0}:^x"),
        ("{s:a}:x y", "AND({0}:x, y)"),
        ("{s:a}:(x OR y z)", "OR({0}:x, AND({0}:y, {0}:z))"),
        ("-{s:a}:x", "{-0}:x"),
        ("- {s:a}:x", "{-0}:x"),
        ("e-{s:a}:x", "AND(e, {-0}:x)"),
        ("{s:a}:({s:b}:x OR y)", "OR({}:x, {0}:y)"),
        ("-{s:a}:(-{s:b}:x)", "{-0,1}:x"),
        ("{s:a}:(-{s:a}:x)", "{}:x"),
        ("{s:a}:{s:b}:x", "{}:x"),
        ("\"{s:a}:x\"", "\"s a x\""),
    ])
    func columnFiltersApplyToTermsPhrasesAndGroups(text: String, expected: String) throws {
        #expect(try Self.parsed(text) == expected, "\(text)")
    }

    @Test(arguments: [
        ("x \"y z\" {s:a}:w", "AND({2}:x, {2}:\"y z\", {0}:w)"),
        ("x OR (y NOT z*)", "OR({2}:x, NOT({2}:y, {2}:z*))"),
        ("{s:a}:(x y) z", "AND({0}:x, {0}:y, {2}:z)"),
        ("-{s:a}:x", "{-0}:x"),
        ("^x", "{2}:^x"),
    ])
    func restrictionCoversOnlyUnfilteredPhrases(text: String, expected: String) throws {
        #expect(try Self.parsed(text, restrictTo: 2) == expected, "\(text)")
    }

    @Test(arguments: [
        ("", MatchExpressionError.Code.emptyExpression, 0),
        ("   ", .emptyExpression, 3),
        (" * ", .emptyExpression, 3),
        ("\"abc", .unterminatedString, 0),
        ("a \"b\"\"", .unterminatedString, 2),
        ("(a", .unbalancedParenthesis, 2),
        ("(a OR (b)", .unbalancedParenthesis, 9),
        ("a)", .unbalancedParenthesis, 1),
        ("(a))", .unbalancedParenthesis, 3),
        (")", .unbalancedParenthesis, 0),
        ("()", .emptyGroup, 1),
        ("a AND", .missingOperand, 5),
        ("AND a", .missingOperand, 0),
        ("a OR OR b", .missingOperand, 5),
        ("a NOT", .missingOperand, 5),
        ("NOT", .missingOperand, 0),
        ("(AND a)", .missingOperand, 1),
        ("a AND )", .missingOperand, 6),
        ("a OR (b NOT)", .missingOperand, 11),
        ("{s:a", .unterminatedColumnFilter, 0),
        ("x -{s:a", .unterminatedColumnFilter, 3),
        ("{s:a} x", .missingColon, 6),
        ("-{s:a}", .missingColon, 6),
        ("{s:a}:", .missingFilterTarget, 6),
        ("{s:a}: OR b", .missingFilterTarget, 7),
        ("({s:a}:)", .missingFilterTarget, 7),
        ("{s:zz}:x", .unknownColumn, 0),
        ("a {}:x", .unknownColumn, 2),
        ("NEAR()", .invalidNear, 5),
        ("NEAR(a b", .invalidNear, 8),
        ("NEAR(a b, x)", .invalidNear, 10),
        ("NEAR(a b,)", .invalidNear, 9),
        ("NEAR(a OR b)", .invalidNear, 7),
        ("NEAR(a, 1234567890)", .invalidNear, 8),
        ("NEAR(a, \"5\")", .invalidNear, 8),
        ("é (a", .unbalancedParenthesis, 5),
        ("\"a\u{0}b\"", .unterminatedString, 0),
        ("\u{0}a", .emptyExpression, 0),
    ])
    func malformedExpressionsThrowWithTheirOffset(text: String, code: MatchExpressionError.Code, offset: Int) {
        do {
            let parsed = try MatchExpression(parsing: text, resolveColumn: Self.resolve)
            Issue.record("\(text) parsed as \(parsed)")
        } catch {
            #expect(error.code == code, "\(text): \(error)")
            #expect(error.offset == offset, "\(text): \(error)")
            #expect(!error.expected.isEmpty)
        }
    }

    @Test func deepNestingIsBoundedAndLongChainsAreFlat() throws {
        let deepest = String(repeating: "(", count: 100) + "a" + String(repeating: ")", count: 100)
        #expect(try Self.parsed(deepest) == "a")
        do {
            _ = try Self.parsed("x OR " + String(repeating: "(", count: 101) + "a" + String(repeating: ")", count: 101))
            Issue.record("101 nested groups parsed")
        } catch let error as MatchExpressionError {
            #expect(error.code == .tooDeep)
            #expect(error.offset == 5 + 100)
        }
        // 100 levels of OR / AND / NOT groups parse, evaluate and print without running out of stack.
        var mixed = "a"
        for level in 0..<100 { mixed = "b \(["OR", "AND", "NOT"][level % 3]) (\(mixed))" }
        let nested = try MatchExpression(parsing: mixed, resolveColumn: Self.resolve)
        var index = FullTextIndex(columnCount: 1)
        index.add(id: 1, columns: ["a b"])
        #expect(nested.matchingIDs(in: index).count <= 1)
        #expect(nested.description.count > 100)
        let chain = "a" + String(repeating: " NOT b", count: 50_000)
        let parsed = try MatchExpression(parsing: chain, resolveColumn: Self.resolve)
        guard case .not(_, let excluded) = parsed.root else { Issue.record("not a NOT"); return }
        #expect(excluded.count == 50_000)
        let filters = String(repeating: "{s:a}:", count: 50_000) + "x"
        #expect(try Self.parsed(filters) == "{0}:x")
    }

    @Test func offsetsConvertToCharacters() throws {
        let text = "é 👍🏽 (a"
        do {
            _ = try MatchExpression(parsing: text, resolveColumn: Self.resolve)
            Issue.record("parsed")
        } catch {
            #expect(error.offset == text.utf8.count)
            #expect(error.characterOffset(in: text) == text.count)
            #expect(MatchExpressionError(.missingOperand, offset: 2, expected: "x").characterOffset(in: text) == 1)
            #expect(MatchExpressionError(.missingOperand, offset: 4, expected: "x").characterOffset(in: text) == 2)
        }
    }
}
