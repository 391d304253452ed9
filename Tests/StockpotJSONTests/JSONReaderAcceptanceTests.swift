// Pins what JSONReader accepts and the value it builds: top-level scalars, the four white-space
// bytes, every escape, surrogate pairs, raw U+2028/U+2029, key order, and the three overloads.
import Testing
import StockpotJSON

@Suite struct JSONReaderAcceptanceTests {
    static let topLevelValues: [(String, JSONValue)] = [
        ("null", .null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("0", .integer(0)),
        ("-7", .integer(-7)),
        ("2.5", .double(2.5)),
        ("\"\"", .string("")),
        ("\"hi\"", .string("hi")),
        ("[]", .array([])),
        ("{}", .object(JSONObject())),
        (
            "[1,\"a\",null,true,false,[],{}]",
            .array([1, "a", nil, true, false, .array([]), .object(JSONObject())])
        ),
        ("{\"a\":{\"b\":[1,{\"c\":null}]}}", ["a": ["b": [1, ["c": nil]]]]),
    ]

    @Test(arguments: topLevelValues)
    func anyValueIsAcceptedAtTopLevel(text: String, expected: JSONValue) throws {
        let value = try JSONReader.parse(text, limits: .default)
        #expect(identical(value, expected), "\(text) gave \(debugText(value))")
    }

    @Test(arguments: [" ", "\t", "\n", "\r", " \t\r\n "])
    func theFourWhiteSpaceBytesAreAllowedAroundEveryToken(space: String) throws {
        let text = [
            space, "{", "\"a\"", ":", "[", "1", ",", "true", "]", ",", "\"b\"", ":",
            "null", "}", space,
        ].joined(separator: space)
        let value = try JSONReader.parse(text, limits: .default)
        #expect(identical(value, ["a": [1, true], "b": nil]))
    }

    @Test func objectKeysKeepTheirWrittenOrder() throws {
        let value = try JSONReader.parse("{\"z\":1,\"a\":2,\"m\":3,\"b\":4}", limits: .default)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["z", "a", "m", "b"])
        #expect(object.values == [1, 2, 3, 4])
    }

    static let escapes: [(String, String)] = [
        ("\\\"", "\""), ("\\\\", "\\"), ("\\/", "/"), ("\\b", "\u{8}"), ("\\f", "\u{C}"),
        ("\\n", "\n"), ("\\r", "\r"), ("\\t", "\t"), ("\\u0041", "A"), ("\\u00e9", "é"),
        ("\\u00E9", "é"), ("\\u20aC", "€"), ("\\u0000", "\u{0}"), ("\\u001F", "\u{1F}"),
        ("\\uFFFF", "\u{FFFF}"), ("\\uD83D\\uDE00", "😀"), ("\\ud83d\\ude00", "😀"),
        ("\\uDBFF\\uDFFF", "\u{10FFFF}"), ("\\uD800\\uDC00", "\u{10000}"),
        ("a\\u0062c\\td", "abc\td"),
    ]

    @Test(arguments: escapes)
    func escapesDecodeToTheirCharacters(escaped: String, expected: String) throws {
        let value = try JSONReader.parse("\"" + escaped + "\"", limits: .default)
        let string = try #require(value.stringValue)
        #expect(Array(string.utf8) == Array(expected.utf8), "\(escaped)")
    }

    @Test func escapedKeysDecodeLikeValues() throws {
        let value = try JSONReader.parse("{\"N\\u0061me\":1,\"\\n\":2}", limits: .default)
        #expect(try #require(value.objectValue).keys == ["Name", "\n"])
    }

    @Test(arguments: ["\u{2028}", "\u{2029}", "\u{7F}", "é", "中", "😀", "\u{FEFF}", "\u{10FFFF}"])
    func rawNonASCIIAndDELAreAcceptedInsideStrings(raw: String) throws {
        let value = try JSONReader.parse("[\"x" + raw + "y\"]", limits: .default)
        #expect(identical(value, .array([.string("x" + raw + "y")])))
    }

    @Test func combiningSequencesAreKeptByteForByte() throws {
        // "e" + COMBINING ACUTE must not be normalized to U+00E9.
        let value = try JSONReader.parse("\"e\u{301}\"", limits: .default)
        #expect(Array(try #require(value.stringValue).utf8) == [0x65, 0xCC, 0x81])
    }

    static let overloadInputs: [String] = [
        "{\"a\":[1,2.5,\"x\"]}", "  17 ", "\"\\uD83D\\uDE00\"", "[1,2,]", "01", "\"abc", "1 2",
        "{\"a\":1,\"a\":2}", "",
    ]

    @Test(arguments: overloadInputs)
    func theThreeOverloadsAgree(text: String) {
        let input = bytes(text)
        func run(_ body: () throws(JSONError) -> JSONValue) -> Result<JSONValue, JSONError> {
            do throws(JSONError) { return .success(try body()) } catch { return .failure(error) }
        }
        let fromString = run { () throws(JSONError) in try JSONReader.parse(text, limits: .default) }
        let fromArray = run { () throws(JSONError) in try JSONReader.parse(input, limits: .default) }
        let fromBuffer = input.withUnsafeBytes { buffer in
            run { () throws(JSONError) in try JSONReader.parse(buffer, limits: .default) }
        }
        for other in [fromArray, fromBuffer] {
            switch (fromString, other) {
            case (.success(let a), .success(let b)):
                #expect(identical(a, b), "\(text.debugDescription)")
            case (.failure(let a), .failure(let b)):
                #expect(a.code == b.code && a.offset == b.offset, "\(text.debugDescription)")
            default:
                Issue.record("overloads disagree on \(text.debugDescription): \(fromString) vs \(other)")
            }
        }
    }

    @Test func defaultLimitsAreTheDocumentedOnes() {
        #expect(JSONLimits.default.maxDepth == 512)
        #expect(JSONLimits.default.maxInputBytes == 64 * 1024 * 1024)
        #expect(JSONLimits.default.maxStringBytes == 16 * 1024 * 1024)
    }
}
