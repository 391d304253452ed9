// Pins the error code JSONReader gives for each kind of malformed text (numbers and UTF-8 have
// their own files), and that every error carries a non-empty message.
import Testing
import StockpotJSON

@Suite struct JSONReaderRejectionTests {
    @Test(arguments: [
        "[1,2,]", "[1,]", "[1 , ]", "{\"a\":1,}", "{\"a\":1 , }", "[[1,],2]",
        "{\"a\":[1,],\"b\":2}",
    ])
    func trailingCommaIsRejected(text: String) {
        #expect(parseError(text)?.code == .trailingComma, "\(text)")
    }

    @Test(arguments: [
        "[,]", "[,1]", "[1,,2]", "[1 2]", "{,}", "{\"a\" 1}", "{\"a\":1 \"b\":2}",
        "{\"a\"::1}", "{:1}", "]", "}", ":", ",", "[}", "{]", "{\"a\":}", "True",
        "nUll", "trux", "fals3", "x",
    ])
    func misplacedOrUnknownBytesAreUnexpectedCharacters(text: String) {
        #expect(parseError(text)?.code == .unexpectedCharacter, "\(text)")
    }

    @Test(arguments: [
        "// c\n1", "/* c */ 1", "[1,/* x */2]", "{\"a\":1/*x*/}", "[1//x\n]",
        "#1",
    ])
    func commentsAreRejected(text: String) {
        #expect(parseError(text)?.code == .unexpectedCharacter, "\(text)")
    }

    @Test(arguments: ["'a'", "{'a':1}", "[\"a\",'b']", "{\"a\":'b'}"])
    func singleQuotesAreRejected(text: String) {
        #expect(parseError(text)?.code == .unexpectedCharacter, "\(text)")
    }

    @Test(arguments: ["{a:1}", "{\"a\":1,b:2}", "{1:1}", "{null:1}", "{[]:1}"])
    func keysMustBeStrings(text: String) {
        #expect(parseError(text)?.code == .unexpectedCharacter, "\(text)")
    }

    @Test(arguments: ["\u{C}1", "[\u{C}1]", "\u{B}1", "\u{A0}1", "\u{FEFF}1", "[1,\u{2028}2]"])
    func otherWhiteSpaceIsRejected(text: String) {
        #expect(parseError(text)?.code == .unexpectedCharacter, "\(text.debugDescription)")
    }

    @Test(arguments: Array(UInt8(0x00)...UInt8(0x1F)))
    func rawControlCharacterInStringIsRejected(byte: UInt8) {
        let value: [UInt8] = [0x22, 0x61, byte, 0x62, 0x22]
        #expect(parseError(value)?.code == .controlCharacter, "value byte \(byte)")
        let key: [UInt8] = [0x7B, 0x22, byte, 0x22, 0x3A, 0x31, 0x7D]
        #expect(parseError(key)?.code == .controlCharacter, "key byte \(byte)")
    }

    @Test(arguments: [
        "\"\\uD800\"", "\"\\uDC00\"", "\"\\uDFFF\"", "\"\\uD800\\u0041\"",
        "\"\\uD800x\"", "\"\\uDBFF\"", "\"\\uDE00\\uD83D\"", "\"\\uD800\\uD800\"",
        "{\"\\uD800\":1}", "\"a\\udc00b\"",
    ])
    func loneSurrogateEscapeIsRejected(text: String) {
        #expect(parseError(text)?.code == .loneSurrogate, "\(text)")
    }

    @Test(arguments: [
        "\"\\x\"", "\"\\u12G4\"", "\"\\u12\"", "[\"\\u12\"]", "\"\\U0041\"", "\"\\a\"", "\"\\'\"",
        "\"\\0\"", "\"\\ \"", "\"\\u-123\"", "{\"\\q\":1}",
    ])
    func badEscapeIsRejected(text: String) {
        #expect(parseError(text)?.code == .invalidEscape, "\(text)")
    }

    @Test(arguments: [
        "{\"a\":1,\"a\":2}", "{\"a\":1,\"b\":2,\"a\":3}", "{\"x\":{\"a\":1,\"a\":1}}",
        "[{\"a\":1,\"a\":null}]", "{\"a\":1,\"\\u0061\":2}", "{\"\":1,\"\":2}",
        "{\"😀\":1,\"\\uD83D\\uDE00\":2}",
    ])
    func duplicateKeyInOneObjectIsRejected(text: String) {
        #expect(parseError(text)?.code == .duplicateKey, "\(text)")
    }

    /// An object with `count` distinct keys k0, k1, ... and then `extra` appended as written.
    static func wideObject(_ count: Int, then extra: String = "") -> String {
        "{" + (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + extra + "}"
    }

    @Test func duplicateKeyInAWideObjectIsRejected() throws {
        // Wide objects may take a different duplicate check than small ones.
        #expect(parsed(Self.wideObject(100)) != nil)
        for (count, repeated) in [(40, "k0"), (40, "k39"), (100, "k33"), (100, "k\\u0035\\u0030")] {
            let text = Self.wideObject(count, then: ",\"\(repeated)\":0")
            let error = try #require(parseError(text), "accepted \(count) keys + \(repeated)")
            #expect(error.code == .duplicateKey, "\(count) keys + \(repeated)")
            #expect(error.offset == text.utf8.count - 1 - repeated.utf8.count - 4, "\(count) keys + \(repeated)")
        }
    }

    @Test func sameKeyInDifferentObjectsIsAccepted() throws {
        let value = try JSONReader.parse(
            "{\"a\":{\"a\":1},\"b\":[{\"a\":1},{\"a\":2}]}",
            limits: .default)
        #expect(identical(value, ["a": ["a": 1], "b": [["a": 1], ["a": 2]]]))
    }

    @Test func keysDifferingOnlyInCaseAreDistinct() throws {
        let value = try JSONReader.parse("{\"a\":1,\"A\":2}", limits: .default)
        #expect(try #require(value.objectValue).keys == ["a", "A"])
    }

    @Test(arguments: [
        "1 2", "{} x", "[]]", "nulll", "\"a\"\"b\"", "truefalse", "{}{}", "0 0",
        "1 \u{C}", "[1] ,", "1/", "\"x\" //",
    ])
    func trailingGarbageIsRejected(text: String) {
        #expect(parseError(text)?.code == .trailingGarbage, "\(text.debugDescription)")
    }

    @Test(arguments: [
        "", " ", " \t\r\n ", "[", "[1", "[1,", "{", "{\"a\"", "{\"a\":", "{\"a\":1",
        "{\"a\":1,", "\"abc", "\"abc\\", "\"\\u00", "\"\\uD83D", "tru", "nul", "f",
        "[\"a\"", "{\"a",
    ])
    func unterminatedInputIsUnexpectedEnd(text: String) {
        #expect(parseError(text)?.code == .unexpectedEnd, "\(text.debugDescription)")
    }

    static let everyKindOfError: [String] = [
        "[1,]", "01", "1.", "NaN", "1e400", "\"\\x\"", "\"\\uD800\"", "\"\n\"", "{\"a\":1,\"a\":2}",
        "1 2", "", "[",
    ]

    @Test(arguments: everyKindOfError)
    func everyErrorHasAMessage(text: String) throws {
        let error = try #require(parseError(text), "\(text.debugDescription) was accepted")
        #expect(!error.message.isEmpty)
        #expect(!error.description.isEmpty)
    }

    @Test func invalidUTF8ErrorHasAMessage() throws {
        let error = try #require(parseError([0x22, 0xFF, 0x22]))
        #expect(error.code == .invalidUTF8)
        #expect(!error.message.isEmpty)
    }
}
