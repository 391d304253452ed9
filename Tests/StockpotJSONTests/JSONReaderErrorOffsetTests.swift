// Pins the byte offset JSONReader reports: the byte where the problem is noticed (closing bracket
// after a trailing comma, second digit of a leading zero, the repeated key's quote, ...).
import Testing
import StockpotJSON

@Suite struct JSONReaderErrorOffsetTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var input: [UInt8]
        var code: JSONError.Code
        var offset: Int
        var testDescription: String { "\(describe(input)) -> \(code)@\(offset)" }

        init(_ text: String, _ code: JSONError.Code, _ offset: Int) {
            self.init(bytes(text), code, offset)
        }

        init(_ input: [UInt8], _ code: JSONError.Code, _ offset: Int) {
            self.input = input
            self.code = code
            self.offset = offset
        }
    }

    static let cases: [Case] = [
        Case("[1,2,]", .trailingComma, 5),
        Case("{\"a\":1,}", .trailingComma, 7),
        Case("[1, 2 ,\n ]", .trailingComma, 9),
        Case("01", .leadingZero, 1),
        Case("-01", .leadingZero, 2),
        Case("[1, 007]", .leadingZero, 5),
        Case("\"ab\ncd\"", .controlCharacter, 3),
        Case("{\"k\":\"\u{0}\"}", .controlCharacter, 6),
        Case([0x22, 0x61, 0xFF, 0x22], .invalidUTF8, 2),
        Case([0x22, 0x80, 0x22], .invalidUTF8, 1),
        Case([0x22, 0x61, 0xC0, 0xAF, 0x22], .invalidUTF8, 2),
        Case([0x5B, 0x22, 0xC3, 0xA9, 0xF5, 0x22, 0x5D], .invalidUTF8, 4),
        Case([0x20, 0xFF], .invalidUTF8, 1),
        Case("{\"a\":1,\"a\":2}", .duplicateKey, 7),
        Case("{\"a\":1, \"b\":2, \"a\":3}", .duplicateKey, 15),
        Case("[{\"x\":{\"y\":0,\"y\":0}}]", .duplicateKey, 13),
        Case("1 2", .trailingGarbage, 2),
        Case("{} x", .trailingGarbage, 3),
        Case("[] \n ]", .trailingGarbage, 5),
        Case("nulll", .trailingGarbage, 4),
        Case("[1,,2]", .unexpectedCharacter, 3),
        Case("{a:1}", .unexpectedCharacter, 1),
        Case("  NaN", .unexpectedCharacter, 2),
        Case("", .unexpectedEnd, 0),
        Case("   ", .unexpectedEnd, 3),
        Case("[1,", .unexpectedEnd, 3),
        Case("\"abc", .unexpectedEnd, 4),
    ]

    @Test(arguments: cases)
    func errorIsReportedAtTheOffendingByte(_ c: Case) throws {
        let error = try #require(parseError(c.input), "accepted \(describe(c.input))")
        #expect(error.code == c.code)
        #expect(error.offset == c.offset, "\(error)")
    }

    @Test(arguments: ["\"\\x\"", "\"\\u12G4\"", "\"\\uD800\"", "\"\\uDC00\""])
    func escapeErrorsPointIntoTheEscape(text: String) throws {
        // Where inside the escape (or at the byte after a lone high surrogate) is left open,
        // but the offset must be past the opening quote and inside the input.
        let error = try #require(parseError(text))
        #expect((1..<text.utf8.count).contains(error.offset), "\(text): \(error)")
    }

    @Test func offsetIsCountedInBytesNotCharacters() throws {
        // "é" and "😀" are 2 and 4 bytes; the trailing comma's "]" is at byte 13.
        let error = try #require(parseError("[\"é\",\"😀\",]"))
        #expect(error.code == .trailingComma)
        #expect(error.offset == 13)
    }
}
