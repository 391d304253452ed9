// The lexer's tokens: kinds and byte ranges, comments, quotes that hide braces, `{soup}` and
// `{soup:path}` edge cases, numbers as SQLite cuts them, and where it stops on bad bytes.

import Testing
@testable import StockpotQuery

@Suite struct SQLLexerTests {
    /// The statement's tokens as "kind:text", without the end token.
    static func tokens(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        return SQLLexer.tokenize(bytes).dropLast().map { token in
            let spelled = String(decoding: bytes[token.start..<token.end], as: UTF8.self)
            let kind: String
            switch token.kind {
            case .keyword(let keyword): kind = "kw"; _ = keyword
            case .identifier: kind = "id"
            case .quotedIdentifier: kind = "qid"
            case .string: kind = "str"
            case .integer: kind = "int"
            case .real: kind = "real"
            case .hexInteger: kind = "hex"
            case .soup: kind = "soup"
            case .soupPath: kind = "path"
            case .invalid(let problem): kind = "invalid(\(problem))"
            default: kind = "op"
            }
            return kind + ":" + spelled
        }
    }

    static let cases: [(String, [String])] = [
        ("SELECT x FROM", ["kw:SELECT", "id:x", "kw:FROM"]),
        ("sElEcT FrOm", ["kw:sElEcT", "kw:FrOm"]),
        ("selected _from from_ $x x$ é9 9é", ["id:selected", "id:_from", "id:from_", "invalid(namedPlaceholder):$x"]),
        ("x$ é9 naïve", ["id:x$", "id:é9", "id:naïve"]),
        ("9é", ["invalid(malformedNumber):9é"]),
        ("'{a:b}' {a:b} '{' }", ["str:'{a:b}'", "path:{a:b}", "str:'{'", "invalid(unrecognized):}"]),
        ("'it''s' \"a\"\"b\" [a\"b] `a``b`", ["str:'it''s'", "qid:\"a\"\"b\"", "qid:[a\"b]", "qid:`a``b`"]),
        ("\"{a}\" [{a:b}]", ["qid:\"{a}\"", "qid:[{a:b}]"]),
        ("{s}{t:p}.{u:q:r}", ["soup:{s}", "path:{t:p}", "op:.", "path:{u:q:r}"]),
        ("{a b:c d}", ["path:{a b:c d}"]),
        ("{s:'x'} {s:\"}", ["path:{s:'x'}", "path:{s:\"}"]),
        ("{s:a -- b}", ["path:{s:a -- b}"]),
        ("-- {s:a\n1 /* {x */ 2 /* open", ["int:1", "int:2"]),
        ("1--x\n2", ["int:1", "int:2"]),
        ("1/**/2", ["int:1", "int:2"]),
        (
            "1 .5 1. 1.5 1e3 1E+3 1e-3 .5e2 0x1f 0X1F 00x1",
            [
                "int:1", "real:.5", "real:1.", "real:1.5", "real:1e3", "real:1E+3", "real:1e-3", "real:.5e2", "hex:0x1f", "hex:0X1F",
                "invalid(malformedNumber):00x1",
            ]
        ),
        ("1.x", ["invalid(malformedNumber):1.x"]),
        ("1.5.3", ["real:1.5", "real:.3"]),
        ("0x", ["invalid(malformedNumber):0x"]),
        ("a.b", ["id:a", "op:.", "id:b"]),
        (
            "=== !=<> <=>= <<>> || | & ~ -> ->> ->>>",
            [
                "op:==", "op:=", "op:!=", "op:<>", "op:<=", "op:>=", "op:<<", "op:>>", "op:||", "op:|", "op:&", "op:~", "op:->", "op:->>", "op:->>",
                "op:>",
            ]
        ),
        ("? ?? ?1", ["op:?", "op:?", "op:?", "invalid(namedPlaceholder):?1"]),
        (":", ["invalid(unrecognized)::"]),
        ("'abc", ["invalid(unterminatedString):'abc"]),
        ("x 'abc' 'de", ["id:x", "str:'abc'", "invalid(unterminatedString):'de"]),
        ("[abc", ["invalid(unterminatedQuotedName):[abc"]),
        ("{s:a", ["invalid(unterminatedBrace):{s:a"]),
        ("{:a} 1", ["invalid(emptySoupName):{:a}"]),
        ("{s:} 1", ["invalid(emptyPath):{s:}"]),
        ("1 \u{0} 2", ["int:1", "invalid(unrecognized):\u{0}"]),
        ("\t\r\n\u{0C}1", ["int:1"]),
    ]

    @Test(arguments: cases)
    func lexes(_ text: String, _ expected: [String]) {
        #expect(Self.tokens(text) == expected)
    }

    @Test func tokenRangesAreByteOffsets() {
        let tokens = SQLLexer.tokenize(Array("é {s:ä} x".utf8))
        #expect(tokens.map(\.start) == [0, 3, 10, 11])
        #expect(tokens.map(\.end) == [2, 9, 11, 11])
        #expect(tokens[1].colon == 5)
        #expect(tokens.last?.kind == .end)
    }

    @Test func keywordsAreRecognizedOnlyWhole() {
        for keyword in SQLKeyword.allCases {
            let spelling = keyword.rawValue
            #expect(SQLLexer.tokenize(Array(spelling.lowercased().utf8))[0].kind == .keyword(keyword))
            #expect(SQLLexer.tokenize(Array((spelling + "x").utf8))[0].kind == .identifier)
            #expect(SQLLexer.tokenize(Array(("\"" + spelling + "\"").utf8))[0].kind == .quotedIdentifier)
        }
    }
}
