// Hand-written tokenizer cases: each expectation is written out and also checked against
// SQLite FTS5, plus positions, query-term folding and the utf8proc version the tables assume.

import CUTF8Proc
import Testing
@testable import StockpotIndex

@Suite struct TokenizerTests {
    static let cases: [(String, [String])] = [
        ("Hello, World!", ["hello", "world"]),
        ("Élan élan ELAN", ["elan", "elan", "elan"]),
        ("don't e-mail re-enter", ["don", "t", "e", "mail", "re", "enter"]),
        ("3.14 1,000 snake_case", ["3", "14", "1", "000", "snake", "case"]),
        ("naïve café résumé Ångström", ["naive", "cafe", "resume", "angstrom"]),
        ("straße STRASSE ẞ", ["straße", "strasse", "ß"]),
        ("İstanbul ıi", ["istanbul", "ıi"]),
        ("Øre œuvre ŒUVRE Æsir", ["øre", "œuvre", "œuvre", "æsir"]),
        ("ǖ ệ ǰ ĳ", ["ǖ", "ệ", "j", "ĳ"]),
        ("ΣΊΣΥΦΟΣ ς ϐ", ["σίσυφοσ", "σ", "β"]),
        ("Привет ЁЖ", ["привет", "ёж"]),
        ("中文字符 カタカナ 한국어", ["中文字符", "カタカナ", "한국어"]),
        ("a😀b 👍🏽", ["a", "b", "🏽"]),  // skin tones: unassigned in FTS5's tables, so letters
        ("x\u{301}y \u{301}x x\u{305}y", ["xy", "x", "x", "y"]),
        ("٣٤٥ ४२ ½ ²³ ①", ["٣٤٥", "४२", "½", "²³", "①"]),
        ("Ｆｕｌｌ ｗｉｄｔｈ", ["ｆｕｌｌ", "ｗｉｄｔｈ"]),
        ("\u{E000}x \u{10FFFD}", ["\u{E000}x", "\u{10FFFD}"]),
        ("Ꭰ \u{AB70} \u{1C90}", ["Ꭰ", "\u{AB70}", "\u{1C90}"]),  // case pairs FTS5 does not know
        ("a\u{378}b", ["a\u{378}b"]),  // unassigned: a token character to FTS5
        ("ʼokina a’b", ["ʼokina", "a", "b"]),  // U+02BC is a letter, U+2019 punctuation
        ("", []),
        ("  ,,, -- ", []),
    ]

    @Test(arguments: cases)
    func handWrittenCaseTokenizesAsWritten(text: String, expected: [String]) {
        let ours = Tokenizer.tokens(in: text)
        #expect(ours.map(\.text).map { Array($0.utf8) } == expected.map { Array($0.utf8) })
        #expect(ours.map(\.position) == Array(expected.indices))
    }

    @Test(arguments: cases)
    func handWrittenCaseMatchesFTS5(text: String, expected: [String]) {
        let theirs = FTS5Oracle().tokens(text).map(\.bytes)
        #expect(theirs == expected.map { Array($0.utf8) })
    }

    @Test func positionsCountTokensNotBytes() {
        let tokens = Tokenizer.tokens(in: "  alpha,  beta -- gamma\u{301} ")
        #expect(
            tokens == [
                Token(text: "alpha", position: 0), Token(text: "beta", position: 1),
                Token(text: "gamma", position: 2),
            ])
    }

    @Test func bytesAndStringEntryPointsAgree() {
        let text = "Ça marche, DÉJÀ vu — 中文"
        let fromBytes = Array(text.utf8).withUnsafeBytes { Tokenizer.tokens(utf8: $0) }
        #expect(fromBytes == Tokenizer.tokens(in: text))
        #expect(Tokenizer.tokens(utf8: UnsafeRawBufferPointer(start: nil, count: 0)).isEmpty)
    }

    @Test func longTokensAreKeptWhole() {
        let text = String(repeating: "Ab", count: 40_000)
        let tokens = Tokenizer.tokens(in: text)
        #expect(tokens.count == 1)
        #expect(tokens.first?.text == String(repeating: "ab", count: 40_000))
    }

    @Test func tokensCompareByBytesNotCanonicalEquivalence() {
        // A precomposed Hangul syllable and its conjoining jamo: equal Strings, different tokens.
        let syllable = Tokenizer.tokens(in: "\u{AC00}")
        let jamo = Tokenizer.tokens(in: "\u{1100}\u{1161}")
        #expect(syllable.count == 1 && jamo.count == 1)
        #expect(syllable[0].text == jamo[0].text)  // Swift's String equality
        #expect(syllable != jamo)
        #expect(Set(syllable + jamo).count == 2)
    }

    @Test func foldReturnsTheSingleTokenOfATerm() {
        #expect(Tokenizer.fold("Élan") == "elan")
        #expect(Tokenizer.fold("  STRASSE! ") == "strasse")
        #expect(Tokenizer.fold("--") == nil)
        #expect(Tokenizer.fold("") == nil)
        #expect(Tokenizer.fold("e-mail") == nil)  // two tokens: a phrase, see `tokens(in:)`
    }

    @Test func utf8procIsTheVersionTheTablesWereMadeWith() {
        // TokenizerTables.unfoldedRanges lists FTS5's exceptions to utf8proc 2.8.0's folding; a
        // different utf8proc may fold other code points. Rerun the generator if this fails.
        #expect(String(cString: utf8proc_version()) == "2.8.0")
    }
}
