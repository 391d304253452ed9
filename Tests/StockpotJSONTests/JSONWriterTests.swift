// Pins JSONWriter's output: compact, key order kept, which characters are escaped and how,
// exact integers, shortest round-tripping doubles that stay doubles, and null for non-finite.
import Testing
import StockpotJSON
import StockpotTestSupport

@Suite struct JSONWriterTests {
    static func text(_ value: JSONValue) -> String {
        String(decoding: JSONWriter.write(value), as: UTF8.self)
    }

    @Test func outputIsCompact() {
        let value: JSONValue = [1, ["a": [true, false, nil], "b": .object(JSONObject())], "x", .array([])]
        #expect(Self.text(value) == "[1,{\"a\":[true,false,null],\"b\":{}},\"x\",[]]")
    }

    @Test func objectKeysKeepTheirOrder() {
        let value: JSONValue = ["z": 1, "a": 2, "m": ["y": 3, "b": 4]]
        #expect(Self.text(value) == "{\"z\":1,\"a\":2,\"m\":{\"y\":3,\"b\":4}}")
    }

    static let stringEscapes: [(String, String)] = [
        ("\"", "\\\""), ("\\", "\\\\"), ("\u{8}", "\\b"), ("\u{C}", "\\f"), ("\n", "\\n"),
        ("\r", "\\r"), ("\t", "\\t"), ("\u{0}", "\\u0000"), ("\u{1}", "\\u0001"),
        ("\u{B}", "\\u000b"), ("\u{E}", "\\u000e"), ("\u{1B}", "\\u001b"), ("\u{1F}", "\\u001f"),
        ("/", "/"), ("\u{7F}", "\u{7F}"), ("\u{2028}", "\u{2028}"), ("\u{2029}", "\u{2029}"),
        ("é", "é"), ("中", "中"), ("😀", "😀"), ("\u{FFFF}", "\u{FFFF}"), (" ", " "), ("'", "'"),
        ("a\"b\\c\nd", "a\\\"b\\\\c\\nd"),
    ]

    @Test(arguments: stringEscapes)
    func stringsAreEscapedMinimally(raw: String, escaped: String) {
        let output = JSONWriter.write(.string(raw))
        #expect(output == Array(("\"" + escaped + "\"").utf8), "\(raw.debugDescription)")
    }

    @Test(arguments: stringEscapes)
    func keysAreEscapedLikeStrings(raw: String, escaped: String) {
        let output = JSONWriter.write(.object(JSONObject([(raw, .null)])))
        #expect(output == Array(("{\"" + escaped + "\":null}").utf8), "\(raw.debugDescription)")
    }

    @Test(arguments: [Int64.min, .max, 0, -1, 1, 9_007_199_254_740_993, -9_007_199_254_740_993])
    func integersAreWrittenExactly(value: Int64) {
        #expect(Self.text(.integer(value)) == String(value))
    }

    @Test(arguments: [
        (0.1, "0.1"), (1.5, "1.5"), (-2.25, "-2.25"), (0.30000000000000004, "0.30000000000000004"),
        (123.456, "123.456"),
    ])
    func simpleDoublesAreWrittenInTheirShortestDecimal(value: Double, expected: String) {
        #expect(Self.text(.double(value)) == expected)
    }

    static let awkwardDoubles: [Double] = [
        100.0, 1.0, 0.0, -0.0, -1.0, 1e16, 1e-5, 1e21, 1e22, 1e300, -1e300,
        .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        9_007_199_254_740_992.0, 9_223_372_036_854_775_808.0, -9_223_372_036_854_775_808.0,
        Double(bitPattern: 0x000F_FFFF_FFFF_FFFF), 1.7976931348623155e308, 4.35, 0.000001, 123456789012.0,
    ]

    @Test(arguments: awkwardDoubles)
    func doublesReadBackAsTheSameDoubleBits(value: Double) throws {
        let output = JSONWriter.write(.double(value))
        let back = try JSONReader.parse(output, limits: .default)
        #expect(identical(back, .double(value)), "\(value) written as \(describe(output)) read back as \(debugText(back))")
    }

    @Test func integralDoubleIsNotReadBackAsAnInteger() throws {
        let back = try JSONReader.parse(JSONWriter.write(.double(100.0)), limits: .default)
        #expect(identical(back, .double(100.0)), "gave \(debugText(back))")
    }

    @Test func negativeZeroKeepsItsSign() throws {
        let back = try JSONReader.parse(JSONWriter.write(.double(-0.0)), limits: .default)
        guard case .double(let d) = back else {
            Issue.record("-0.0 read back as \(debugText(back))")
            return
        }
        #expect(d.sign == .minus && d == 0)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, .signalingNaN])
    func nonFiniteDoublesAreWrittenAsNull(value: Double) {
        #expect(Self.text(.double(value)) == "null")
        #expect(Self.text([.double(value), 1]) == "[null,1]")
        #expect(Self.text(["k": .double(value)]) == "{\"k\":null}")
    }

    /// Significant digits of a decimal number's mantissa, ignoring sign, point and zeros at
    /// either end.
    static func significantDigits(_ text: String) -> Int {
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }.filter { $0.isNumber }
        let trimmed = mantissa.drop { $0 == "0" }.reversed().drop { $0 == "0" }
        return max(trimmed.count, 1)
    }

    @Test func randomDoublesUseNoMoreDigitsThanTheShortestRoundTrip() throws {
        for seed in caseSeeds(base: 0xD0_0B1E, count: 400) {
            var rng = SeededRandom(seed: seed)
            let value = rng.finiteDouble()
            let output = Self.text(.double(value))
            let back = parsed(output)
            #expect(identical(back, .double(value)), "seed \(seed): \(value) written as \(output)")
            // Swift's description is the shortest round-tripping decimal.
            #expect(
                Self.significantDigits(output) <= Self.significantDigits(value.description),
                "seed \(seed): \(value) written as \(output), shortest is \(value.description)")
        }
    }

    @Test func appendAddsToTheEndOfTheBuffer() {
        var buffer: [UInt8] = Array("prefix ".utf8)
        JSONWriter.append(["a": [1, "b"]], to: &buffer)
        #expect(buffer == Array("prefix {\"a\":[1,\"b\"]}".utf8))
        JSONWriter.append(nil, to: &buffer)
        #expect(buffer == Array("prefix {\"a\":[1,\"b\"]}null".utf8))
    }

    @Test func jsonTextIsTheWrittenBytesAsAString() {
        let value: JSONValue = ["é": ["\n", 1.5, -3, nil, false]]
        #expect(Array(value.jsonText.utf8) == JSONWriter.write(value))
        #expect(value.jsonText == "{\"é\":[\"\\n\",1.5,-3,null,false]}")
    }
}
