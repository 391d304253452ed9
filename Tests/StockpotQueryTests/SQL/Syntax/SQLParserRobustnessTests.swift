// The parser never traps: seeded fuzzing with random text and random token soups, nesting at
// and past the limits on a thread with a small (512 KiB) stack, and linear work on statements
// of 25,000 and 250,000 characters, counted in token reads rather than timed.

import Testing
@testable import StockpotQuery
import StockpotTestSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct SQLParserRobustnessTests {
    // MARK: - Fuzzing

    static let fragments = [
        "SELECT", "DISTINCT", "FROM", "WHERE", "GROUP", "BY", "HAVING", "ORDER", "LIMIT", "OFFSET", "AS",
        "JOIN", "LEFT", "OUTER", "INNER", "CROSS", "ON", "AND", "OR", "NOT", "IS", "IN", "LIKE", "ESCAPE",
        "BETWEEN", "MATCH", "ISNULL", "NOTNULL", "NULL", "CASE", "WHEN", "THEN", "ELSE", "END", "DESC",
        "ASC", "TRUE", "FALSE", "DELETE", "UNION", "COLLATE", "CAST", "EXISTS", "GLOB", "DISTINCT",
        "(", ")", ",", ";", ".", "*", "+", "-", "/", "%", "||", "=", "==", "!=", "<>", "<", "<=", ">", ">=",
        "&", "|", "~", "<<", "->", "?", "?1", ":x", "1", "0", "42", "1.5", ".5", "1e3", "0x1F", "9223372036854775808",
        "'a'", "'it''s'", "'{s:a}'", "\"q\"", "[b]", "`c`", "{s}", "{s:a}", "{t:b.c}", "{s", "{:x}", "{s:}",
        "x", "t", "count", "abs", "é", "-- c\n", "/* c */", "/*", "'", "\"", "\u{1F600}",
    ]

    static func check(_ text: String) {
        do throws(SQLSyntaxError) {
            _ = try SQLParser.parse(text)
        } catch {
            let length = text.unicodeScalars.count
            #expect(error.position >= 0 && error.position <= length, "`\(text)`: position \(error.position)")
            #expect(error.message.hasSuffix("."), "`\(text)`: \(error.message)")
        }
    }

    @Test func randomTokenSoupsParseOrThrow() {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("SQLParserRobustnessTests token soups seed \(seed)")
        var random = SeededRandom(seed: seed)
        for _ in 0..<10_000 {
            var text = random.below(3) == 0 ? "" : "SELECT "
            for _ in 0..<random.below(25) {
                text += Self.fragments[random.below(Self.fragments.count)]
                text += random.below(4) == 0 ? "" : " "
            }
            Self.check(text)
        }
    }

    @Test func randomTextParsesOrThrows() {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("SQLParserRobustnessTests random text seed \(seed)")
        var random = SeededRandom(seed: seed)
        let alphabet = Array("SELECT FROM WHERE {s:a}(),;.*+-/%|=!<>&~?:@$#'\"`[]{}\n\t 0123456789xeE_é\u{0}")
        for _ in 0..<10_000 {
            var text = ""
            for _ in 0..<random.below(60) {
                switch random.below(10) {
                case 0: text.unicodeScalars.append(Unicode.Scalar(UInt32(random.below(0xD7FF)))!)
                default: text.append(alphabet[random.below(alphabet.count)])
                }
            }
            Self.check(random.below(2) == 0 ? "SELECT " + text : text)
        }
    }

    // MARK: - Depth

    /// Constructs nested `depth` levels deep.
    static let nestings: [(String, @Sendable (Int) -> String)] = [
        ("parentheses", { String(repeating: "(", count: $0) + "1" + String(repeating: ")", count: $0) }),
        ("function calls", { String(repeating: "abs(", count: $0) + "1" + String(repeating: ")", count: $0) }),
        ("CASE", { String(repeating: "CASE WHEN 1 THEN ", count: $0) + "1" + String(repeating: " END", count: $0) }),
        ("subqueries", { "1" + String(repeating: " IN (SELECT 1 WHERE 1", count: $0) + String(repeating: ")", count: $0) }),
        ("IN lists", { "1" + String(repeating: " IN (1, 1", count: $0) + String(repeating: ")", count: $0) }),
        ("BETWEEN low bounds", { "1" + String(repeating: " BETWEEN 1", count: $0) + String(repeating: " AND 2", count: $0) }),
        ("IS NOT NOT", { "1" + String(repeating: " IS NOT NOT 1 = 1", count: $0) }),
        ("unary minus", { String(repeating: "- ", count: $0) + "1" }),
        ("NOT", { String(repeating: "NOT ", count: $0) + "1" }),
        ("a chain of OR", { Array(repeating: "1", count: $0 + 1).joined(separator: " OR ") }),
        ("a chain of operators", { (0...$0).map { ["1 +", "2 *", "3 ||", "4 <", "5 =", "6 AND", "7 OR"][$0 % 7] }.joined(separator: " ") + " 1" }),
    ]

    @Test(arguments: 0..<nestings.count)
    func deepNestingIsASyntaxErrorNotACrash(_ which: Int) throws {
        let (name, build) = Self.nestings[which]
        let deepest = try runOnSmallStack { () -> Int? in
            // Find the deepest accepted nesting (doubling, then bisecting) on a 512 KiB stack;
            // each parse also compares and frees its tree there.
            func parses(_ depth: Int) -> Bool {
                do throws(SQLSyntaxError) {
                    let select = try SQLParser.parse("SELECT " + build(depth))
                    #expect(select == select)
                    return true
                } catch {
                    #expect(error.message.contains("nested too deeply"), "\(name) at \(depth): \(error.message)")
                    return false
                }
            }
            var accepted = 1
            var refused = 2
            while parses(refused) {
                accepted = refused
                refused *= 2
                if refused > 100_000 { return nil }
            }
            while refused - accepted > 1 {
                let middle = (accepted + refused) / 2
                if parses(middle) { accepted = middle } else { refused = middle }
            }
            return parses(1) ? accepted : nil
        }
        let limit = try #require(deepest, "\(name): no limit found")
        // The stack budget is in bytes, and a sanitizer's instrumented frames are larger: under
        // ThreadSanitizer 9 levels of subqueries fit where a plain debug build fits 14.
        let required = TestEnvironment.sanitizerSlowdown > 1 ? 5 : 10
        #expect(limit >= required, "\(name): only \(limit) levels")
        print("SQLParserRobustnessTests: \(name) nest \(limit) levels deep")
        let refused = try runOnSmallStack { () -> Bool in
            do throws(SQLSyntaxError) {
                _ = try SQLParser.parse("SELECT " + build(10_000))
                return false
            } catch {
                return error.code == .syntax && error.message.contains("nested too deeply")
            }
        }
        #expect(refused, "\(name): 10,000 levels")
    }

    @Test func expressionHeightLimitIsSQLites() throws {
        // SQLite: 1,000 terms of `1 + 1 + ...` are fine, 1,001 are "Expression tree is too large".
        let fine = Array(repeating: "1", count: 1000).joined(separator: " + ")
        let tooTall = Array(repeating: "1", count: 1001).joined(separator: " + ")
        _ = try SQLParser.parse("SELECT " + fine)
        #expect(throws: SQLSyntaxError.self) { try SQLParser.parse("SELECT " + tooTall) }
        _ = try SQLParser.parse("SELECT " + String(repeating: "- ", count: 999) + "1")
        #expect(throws: SQLSyntaxError.self) { try SQLParser.parse("SELECT " + String(repeating: "- ", count: 1000) + "1") }
    }

    // MARK: - Linear time

    /// A statement of at least `length` characters: ORs (as many as SQLite's height limit
    /// allows), a long IN list, long strings with quotes and braces, many result columns.
    static func longStatement(_ length: Int) -> String {
        var text = "SELECT {s:a}, {s:b} AS b"
        for index in 0..<(length / 200) { text += ", upper({s:c\(index)}) AS c\(index)" }
        text += " FROM {s} AS t LEFT JOIN {u} ON t.{s:a} = {u:a} WHERE ({s:a} = 0"
        for index in 1..<min(900, length / 60) { text += " OR {s:a} = \(index)" }
        text += ") AND {s:d} IN (1"
        var index = 2
        while text.utf8.count < length * 3 / 4 {
            text += ", \(index), 'v''\(index)'"
            index += 1
        }
        text += ") AND {s:e} LIKE '"
        while text.utf8.count < length - 40 { text += "it''s {a:b} -- " }
        text += "%' ORDER BY b DESC LIMIT ? OFFSET ?"
        return text
    }

    @Test func parsingIsLinear() throws {
        var ratios: [Double] = []
        for length in [25_000, 250_000] {
            let text = Self.longStatement(length)
            #expect(text.utf8.count >= length)
            let (select, statistics) = try SQLParser.parseWithStatistics(text)
            #expect(select.columns.count == 2 + length / 200)
            // Every token is read a bounded number of times; lexing made at most one token
            // per two bytes.
            #expect(statistics.tokens <= text.utf8.count / 2)
            let ratio = Double(statistics.tokenReads) / Double(statistics.tokens)
            #expect(ratio <= 4, "\(length): \(statistics)")
            ratios.append(ratio)
        }
        #expect(ratios[1] <= ratios[0] * 1.25, "reads per token grew: \(ratios)")
    }

    /// A thread whose stack is too small for the parse's own budget (256 KiB): the parse
    /// must stop at the thread's real stack end, whatever the budget says, never overflow.
    @Test func deepNestingOnAThreadWithLittleStackIsRefusedNotACrash() throws {
        let nested =
            "SELECT " + String(repeating: "(", count: SQLParser.maximumNesting) + "1"
            + String(repeating: ")", count: SQLParser.maximumNesting)
        let outcome = try runOnSmallStack(bytes: 192 * 1024) { () -> String in
            do throws(SQLSyntaxError) {
                _ = try SQLParser.parse(nested)
                return "parsed"
            } catch {
                return error.message
            }
        }
        #expect(outcome == "parsed" || outcome.contains("nested too deeply"), "\(outcome)")
    }

    // MARK: - A small stack

    /// Runs `body` on a new thread with a stack of `bytes` (512 KiB by default) and returns
    /// its result.
    func runOnSmallStack<T>(bytes: Int = 512 * 1024, _ body: @escaping () -> T) throws -> T {
        try #require(SmallStackThread.run(stackBytes: bytes, body))
    }
}
