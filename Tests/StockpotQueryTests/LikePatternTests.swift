// Pins LIKE to SQLite's rules (without ICU): wildcards, ASCII-only case folding, scalars for
// `_`, escapes; and checks random patterns against SQLite itself.

import CSQLite
import StockpotIndex
import StockpotJSON
import Testing
@testable import StockpotQuery
import StockpotTestSupport

@Suite struct LikePatternTests {
    @Test(arguments: [
        ("abc", "abc", true), ("abc", "ABC", true), ("a%", "abc", true), ("%c", "abc", true),
        ("%b%", "abc", true), ("a_c", "abc", true), ("a_c", "ac", false), ("a__", "ab", false),
        ("%", "", true), ("_", "", false), ("ä", "Ä", false), ("_", "ä", true), ("__", "ä", false),
        ("a%b%c", "aXbYc", true), ("a%b%c", "aXcYb", false), ("%%", "x", true), ("%a", "bbb", false),
        ("É%", "é", false), ("x", "X", true), ("%_%_%", "a", false), ("%_%_%", "ab", true),
    ])
    func patternsMatchAsSQLiteDoes(pattern: String, text: String, expected: Bool) throws {
        let compiled = try #require(LikePattern(pattern))
        #expect(compiled.matches(text) == expected, "'\(text)' LIKE '\(pattern)'")
    }

    @Test func escapesMakeWildcardsLiteral() throws {
        let pattern = try #require(LikePattern("100!%%", escape: "!"))
        #expect(pattern.matches("100% sure"))
        #expect(!pattern.matches("1000"))
        #expect(LikePattern("a!b", escape: "!") == nil)
        #expect(LikePattern("ab!", escape: "!") == nil)
    }

    @Test func prefixPatternsAreRecognised() {
        #expect(LikePattern("abc%")?.prefixOnly == Array("abc".utf8))
        #expect(LikePattern("%")?.prefixOnly == [])
        #expect(LikePattern("a_c%")?.prefixOnly == nil)
        #expect(LikePattern("abc")?.prefixOnly == nil)
        #expect(LikePattern("ab%c")?.literalPrefix == Array("ab".utf8))
    }

    @Test func theConditionARegisteredKindIsAskedMatchesValuesAsSQLiteDoes() throws {
        let condition = try #require(LikePattern("1%")).condition(text: "1%")
        #expect(condition.pattern == "1%" && condition.literalPrefix == "1")
        // Numbers through the text SQLite writes for them; null never.
        #expect(condition.matches(.integer(12)) && condition.matches(.double(1.5)) && condition.matches(.text("1a")))
        #expect(!condition.matches(.integer(21)) && !condition.matches(.double(0.1)) && !condition.matches(.null))
        let letters = try #require(LikePattern("%ab_")).condition(text: "%ab_")
        #expect(letters.literalPrefix == "" && letters.matches(.text("xABc")) && !letters.matches(.text("ab")))
        #expect(try #require(LikePattern("2.0%")).condition(text: "2.0%").matches(.double(2)))
    }

    @Test func randomPatternsAgreeWithSQLite() throws {
        let sqlite = try SQLiteLike()
        let alphabet: [String] = ["a", "A", "b", "%", "_", "é", "É", "ß", "😀", "z"]
        var random = SeededRandom(seed: 99)
        for round in 0..<5_000 {
            let text = (0..<random.below(7)).map { _ in alphabet[random.below(alphabet.count)] }.filter { $0 != "%" && $0 != "_" }.joined()
            let pattern = (0..<random.below(6)).map { _ in alphabet[random.below(alphabet.count)] }.joined()
            let expected = try sqlite.matches(text, pattern)
            #expect(LikePattern(pattern)?.matches(text) == expected, "round \(round): '\(text)' LIKE '\(pattern)'")
        }
    }

    /// `%literal%` is matched by a literal search, not the general matcher: pin it to SQLite
    /// on longer texts, with case folding, non-ASCII scalars and near misses.
    @Test func substringPatternsAgreeWithSQLite() throws {
        let sqlite = try SQLiteLike()
        let alphabet: [String] = ["a", "A", "b", "B", "c", " ", "é", "É", "ß", "😀", "1"]
        var random = SeededRandom(seed: 7)
        for round in 0..<5_000 {
            let text = (0..<random.below(30)).map { _ in alphabet[random.below(alphabet.count)] }.joined()
            let literal = (0..<(1 + random.below(4))).map { _ in alphabet[random.below(alphabet.count)] }.joined()
            let pattern = "%" + literal + "%"
            let expected = try sqlite.matches(text, pattern)
            #expect(LikePattern(pattern)?.matches(text) == expected, "round \(round): '\(text)' LIKE '\(pattern)'")
        }
    }

    /// One-literal patterns (`%literal%`, `literal%`, `%literal`, `literal`) skip the general
    /// matcher (a word-at-a-time search for the first, direct comparisons for the others):
    /// pin every shape to SQLite, on texts from empty to past several 8-byte words, with case
    /// folding, non-ASCII scalars (before, inside and after the literal), digits and spaces,
    /// and literal `%`, `_` and `!` through an escape.
    @Test(arguments: ["%L%", "L%", "%L", "L"])
    func oneLiteralPatternsAgreeWithSQLite(shape: String) throws {
        let sqlite = try SQLiteLike()
        let alphabet: [String] = ["a", "A", "b", "B", "c", "z", "Z", " ", "é", "É", "ß", "😀", "1", "@", "`", "%", "_", "!"]
        var random = SeededRandom(seed: UInt64(shape.utf8.count) * 31 + 5)
        for round in 0..<4_000 {
            let text = (0..<random.below(40)).map { _ in alphabet[random.below(alphabet.count)] }.joined()
            var literal = (0..<(1 + random.below(6))).map { _ in alphabet[random.below(alphabet.count - 3)] }
            if random.below(3) == 0, text.count > 2 {
                // A literal taken from the text, case flipped, so matches are common.
                let characters = Array(text)
                let start = random.below(characters.count - 1)
                let slice = characters[start..<min(characters.count, start + 1 + random.below(5))]
                literal = slice.map { String($0).uppercased() == String($0) ? String($0).lowercased() : String($0).uppercased() }
                    .filter { !["%", "_", "!", "ss", "SS"].contains($0) && $0.unicodeScalars.count == 1 }
                if literal.isEmpty { literal = ["a"] }
            }
            let useEscape = random.below(4) == 0
            if useEscape { literal.insert(["!%", "!_", "!!"][random.below(3)], at: random.below(literal.count + 1)) }
            let pattern = shape.replacing("L", with: literal.joined())
            let expected = try sqlite.matches(text, pattern, escape: useEscape ? "!" : nil)
            let compiled = try #require(LikePattern(pattern, escape: useEscape ? "!" : nil), "\(pattern)")
            #expect(compiled.matches(text) == expected, "round \(round): '\(text)' LIKE '\(pattern)'")
        }
    }

    /// The literal search's word boundaries: a match at every offset of texts of every length
    /// up to 24 bytes, and the same texts with one byte changed, which must not match.
    @Test(arguments: [1, 2, 3, 4, 9])
    func substringSearchFindsEveryOffset(literalLength: Int) throws {
        let literal = String("qRsTuVwXy".prefix(literalLength))
        let pattern = try #require(LikePattern("%\(literal)%"))
        for length in literalLength...24 {
            for offset in 0...(length - literalLength) {
                var text = Array(repeating: UInt8(ascii: "-"), count: length)
                text.replaceSubrange(offset..<offset + literalLength, with: Array(literal.lowercased().utf8))
                let found = text.withUnsafeBytes { pattern.matches($0) }
                #expect(found, "'\(literal)' at \(offset) of \(length)")
                text[offset + literalLength - 1] = UInt8(ascii: "#")
                let missed = text.withUnsafeBytes { pattern.matches($0) }
                #expect(!missed, "'\(literal)' broken at \(offset) of \(length)")
            }
        }
    }
}

/// SQLite's own LIKE, the oracle: `SELECT ?1 LIKE ?2` on an in-memory database.
final class SQLiteLike {
    private var database: OpaquePointer?
    private var statement: OpaquePointer?
    private var escaping: OpaquePointer?

    init() throws {
        try #require(sqlite3_open(":memory:", &database) == SQLITE_OK)
        try #require(sqlite3_prepare_v2(database, "SELECT ?1 LIKE ?2", -1, &statement, nil) == SQLITE_OK)
        try #require(sqlite3_prepare_v2(database, "SELECT ?1 LIKE ?2 ESCAPE ?3", -1, &escaping, nil) == SQLITE_OK)
    }

    deinit {
        sqlite3_finalize(statement)
        sqlite3_finalize(escaping)
        sqlite3_close(database)
    }

    /// Whether SQLite says `text LIKE pattern` (with `escape`: `... ESCAPE escape`).
    func matches(_ text: String, _ pattern: String, escape: String? = nil) throws -> Bool {
        let statement = escape == nil ? statement : escaping
        sqlite3_reset(statement)
        if let escape { sqlite3_bind_text(statement, 3, escape, -1, SQLITE_TRANSIENT) }
        sqlite3_bind_text(statement, 1, text, -1, SQLITE_TRANSIENT)
        sqlite3_bind_text(statement, 2, pattern, -1, SQLITE_TRANSIENT)
        try #require(sqlite3_step(statement) == SQLITE_ROW)
        return sqlite3_column_int(statement, 0) == 1
    }
}

/// SQLite's "copy this string now" destructor.
let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
