// Pins that object keys are compared by their UTF-8 bytes everywhere (reader, projection,
// object subscript, extractor): canonically equivalent spellings are different keys.
import Testing
import StockpotJSON

@Suite struct KeyIdentityTests {
    // "é" as U+00E9 (C3 A9) and as "e" + COMBINING ACUTE (65 CC 81): equal as Swift Strings.
    static let text = "{\"\u{E9}\":1,\"e\u{301}\":2}"

    @Test func canonicallyEquivalentKeysAreDistinct() throws {
        let value = try JSONReader.parse(Self.text, limits: .default)
        let keys = try #require(value.objectValue).keys
        #expect(keys.map { Array($0.utf8) } == [[0xC3, 0xA9], [0x65, 0xCC, 0x81]])
    }

    @Test func projectionMatchesKeysByBytes() throws {
        let value = try JSONReader.parse(Self.text, limits: .default)
        #expect(identical(value.project(JSONPath("\u{E9}")), .integer(1)))
        #expect(identical(value.project(JSONPath("e\u{301}")), .integer(2)))
    }

    @Test func subscriptMatchesKeysByBytes() throws {
        let object = try #require(try JSONReader.parse(Self.text, limits: .default).objectValue)
        #expect(identical(object["\u{E9}"], .integer(1)))
        #expect(identical(object["e\u{301}"], .integer(2)))
    }

    @Test func extractorMatchesKeysByBytes() throws {
        let fields = [
            IndexField(path: JSONPath("e\u{301}"), type: .integer),
            IndexField(path: JSONPath("\u{E9}"), type: .integer),
        ]
        let values = try JSONFieldExtractor(fields: fields).indexValues(in: bytes(Self.text))
        #expect(identical(values, [.integer(2), .integer(1)]), "\(values)")
    }
}
