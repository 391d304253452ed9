// Pins how JSONReader reads numbers: integer versus double, the Int64 edges, -0 and -0.0,
// overflow and underflow, correct rounding, and the malformed spellings with their codes.
import Testing
import StockpotJSON
import StockpotTestSupport

@Suite struct JSONReaderNumberTests {
    static let integers: [(String, Int64)] = [
        ("0", 0), ("-0", 0), ("1", 1), ("-1", -1), ("1234567890", 1_234_567_890),
        ("9223372036854775807", .max), ("-9223372036854775808", .min),
        ("9007199254740993", 9_007_199_254_740_993),
    ]

    @Test(arguments: integers)
    func numbersWithoutFractionOrExponentThatFitInt64AreIntegers(text: String, expected: Int64) throws {
        let value = try JSONReader.parse(text, limits: .default)
        #expect(identical(value, .integer(expected)), "\(text) gave \(debugText(value))")
    }

    static let doubles: [(String, Double)] = [
        ("1.0", 1.0), ("0.5", 0.5), ("-0.5", -0.5), ("1e2", 100.0), ("1E2", 100.0),
        ("1e+2", 100.0), ("1e-2", 0.01), ("0e0", 0.0), ("-1.5E-3", -0.0015), ("0.1", 0.1),
        ("9223372036854775808", 9_223_372_036_854_775_808.0),
        ("-9223372036854775809", -9_223_372_036_854_775_808.0),
        ("123456789012345678901234567890", 1.2345678901234568e29),
        ("1.7976931348623157e308", .greatestFiniteMagnitude),
        ("4.9406564584124654e-324", .leastNonzeroMagnitude),
        ("2.2250738585072014e-308", .leastNormalMagnitude),
        ("1e-400", 0.0), ("9007199254740993.0", 9_007_199_254_740_992.0),
        ("0.30000000000000004", 0.30000000000000004),
    ]

    @Test(arguments: doubles)
    func numbersWithFractionExponentOrOverflowAreDoubles(text: String, expected: Double) throws {
        let value = try JSONReader.parse(text, limits: .default)
        #expect(identical(value, .double(expected)), "\(text) gave \(debugText(value))")
    }

    @Test func negativeZeroWithFractionKeepsItsSignBit() throws {
        let value = try JSONReader.parse("-0.0", limits: .default)
        guard case .double(let d) = value else {
            Issue.record("-0.0 gave \(debugText(value))")
            return
        }
        #expect(d == 0 && d.sign == .minus)
    }

    @Test func negativeUnderflowKeepsItsSignBit() throws {
        let value = try JSONReader.parse("-1e-400", limits: .default)
        #expect(identical(value, .double(-0.0)), "gave \(debugText(value))")
    }

    @Test(arguments: ["1E400", "-1e400", "1.7976931348623159e308", "[1e999]"])
    func numbersBeyondDoubleRangeAreOutOfRange(text: String) {
        #expect(parseError(text)?.code == .numberOutOfRange, "\(text)")
    }

    @Test(arguments: ["01", "-01", "00", "0123", "00.5", "[1,02]", "-00"])
    func leadingZerosAreRejected(text: String) {
        #expect(parseError(text)?.code == .leadingZero, "\(text)")
    }

    @Test(arguments: [
        "1.", "1e", "1E", "1e+", "1e-", "-", "-a", "1.e5", "1.a", "[-]", "-.5",
        "[1.]", "1ex", "-Infinity",
    ])
    func numbersThatStartRightButAreMalformedAreInvalid(text: String) {
        #expect(parseError(text)?.code == .invalidNumber, "\(text)")
    }

    @Test(arguments: ["NaN", "Infinity", "+1", ".5", "[+1]", "[.5]", "nan", "inf"])
    func nonNumberSpellingsAreUnexpectedCharacters(text: String) {
        #expect(parseError(text)?.code == .unexpectedCharacter, "\(text)")
    }

    @Test func doublesAreCorrectlyRoundedOnRandomDecimalText() {
        // Swift's Double(String) is correctly rounded; the reader must agree bit for bit.
        for seed in caseSeeds(base: 0x4E55_4D42, count: 500) {
            var rng = SeededRandom(seed: seed)
            var text = rng.oneIn(2) ? "-" : ""
            text += String(1 + rng.below(9))
            for _ in 0..<rng.below(20) { text += String(rng.below(10)) }
            text += "."
            for _ in 0..<(1 + rng.below(20)) { text += String(rng.below(10)) }
            if rng.oneIn(2) { text += "e" + String(rng.below(600) - 300) }
            guard let expected = Double(text), expected.isFinite else { continue }
            let value = parsed(text)
            #expect(
                identical(value, .double(expected)),
                "seed \(seed): \(text) gave \(value.map(debugText) ?? "an error")")
        }
    }
}
