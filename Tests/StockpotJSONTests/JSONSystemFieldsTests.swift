// Pins how JSONSystemFields finds and sets _soupEntryId and _soupLastModifiedDate: present
// first, in the middle or last, absent, null, of a wrong type, spelled with escapes, with
// white space around, nested (not a system field), and what the stored bytes are.
import Testing
import StockpotJSON

@Suite struct JSONSystemFieldsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var input: String
        var entryID: JSONMemberKind?
        var lastModified: JSONMemberKind?
        var canonical: Bool
        var stored: String
        var testDescription: String { input }
    }

    /// Stamped with entry id 9 and time 100.
    static let cases: [Case] = [
        Case(
            input: #"{"_soupEntryId":5,"a":1}"#, entryID: .integer(5), lastModified: nil, canonical: true,
            stored: #"{"_soupEntryId":9,"a":1,"_soupLastModifiedDate":100}"#),
        Case(
            input: #"{"a":1,"_soupEntryId":-5,"b":[2]}"#, entryID: .integer(-5), lastModified: nil, canonical: true,
            stored: #"{"a":1,"_soupEntryId":9,"b":[2],"_soupLastModifiedDate":100}"#),
        Case(
            input: #"{"a":1,"_soupEntryId":12345678901}"#, entryID: .integer(12_345_678_901), lastModified: nil, canonical: true,
            stored: #"{"a":1,"_soupEntryId":9,"_soupLastModifiedDate":100}"#),
        Case(
            input: #"{"_soupLastModifiedDate":7,"x":"y","_soupEntryId":3}"#, entryID: .integer(3), lastModified: .integer(7),
            canonical: true, stored: #"{"_soupLastModifiedDate":100,"x":"y","_soupEntryId":9}"#),
        Case(
            input: #"{"_soupEntryId":3,"_soupLastModifiedDate":7}"#, entryID: .integer(3), lastModified: .integer(7),
            canonical: true, stored: #"{"_soupEntryId":9,"_soupLastModifiedDate":100}"#),
        Case(
            input: #"{"_soupLastModifiedDate":7}"#, entryID: nil, lastModified: .integer(7), canonical: true,
            stored: #"{"_soupLastModifiedDate":100,"_soupEntryId":9}"#),
        Case(
            input: #"{"a":1}"#, entryID: nil, lastModified: nil, canonical: true,
            stored: #"{"a":1,"_soupEntryId":9,"_soupLastModifiedDate":100}"#),
        Case(
            input: #"{}"#, entryID: nil, lastModified: nil, canonical: true,
            stored: #"{"_soupEntryId":9,"_soupLastModifiedDate":100}"#),
        Case(
            input: #"{"_soupEntryId":null,"_soupLastModifiedDate":null}"#, entryID: .null, lastModified: .null, canonical: true,
            stored: #"{"_soupEntryId":9,"_soupLastModifiedDate":100}"#),
        // Wrong types: the store rejects these, but they are reported faithfully.
        Case(
            input: #"{"_soupEntryId":5.0}"#, entryID: .other, lastModified: nil, canonical: true,
            stored: #"{"_soupEntryId":9,"_soupLastModifiedDate":100}"#),
        Case(
            input: #"{"_soupEntryId":"5","_soupLastModifiedDate":true}"#, entryID: .other, lastModified: .other, canonical: true,
            stored: #"{"_soupEntryId":9,"_soupLastModifiedDate":100}"#),
        Case(
            input: #"{"_soupEntryId":[1],"_soupLastModifiedDate":{"t":1}}"#, entryID: .other, lastModified: .other, canonical: true,
            stored: #"{"_soupEntryId":9,"_soupLastModifiedDate":100}"#),
        Case(
            input: #"{"_soupEntryId":1e2}"#, entryID: .other, lastModified: nil, canonical: false,
            stored: #"{"_soupEntryId":9,"_soupLastModifiedDate":100}"#),
        Case(
            input: #"{"_soupEntryId":9223372036854775808}"#, entryID: .other, lastModified: nil, canonical: false,
            stored: #"{"_soupEntryId":9,"_soupLastModifiedDate":100}"#),
        Case(
            input: #"{"_soupEntryId":-9223372036854775808}"#, entryID: .integer(.min), lastModified: nil, canonical: true,
            stored: #"{"_soupEntryId":9,"_soupLastModifiedDate":100}"#),
        Case(
            input: #"{"_soupEntryId":-0}"#, entryID: .integer(0), lastModified: nil, canonical: false,
            stored: #"{"_soupEntryId":9,"_soupLastModifiedDate":100}"#),
        // A key spelled with escapes is the same key; the stored text spells it plainly.
        Case(
            input: #"{"a":"\/","_soupEntry\u0049d":4}"#, entryID: .integer(4), lastModified: nil, canonical: false,
            stored: #"{"a":"/","_soupEntryId":9,"_soupLastModifiedDate":100}"#),
        Case(
            input: #"{"\u005fsoupLastModifiedDate":1,"b":2}"#, entryID: nil, lastModified: .integer(1), canonical: false,
            stored: #"{"_soupLastModifiedDate":100,"b":2,"_soupEntryId":9}"#),
        // White space anywhere: found all the same; stored compact.
        Case(
            input: " {\n  \"_soupEntryId\" : 5 ,\n  \"a\" : [ 1 , 2 ]\n}\t", entryID: .integer(5), lastModified: nil,
            canonical: false, stored: #"{"_soupEntryId":9,"a":[1,2],"_soupLastModifiedDate":100}"#),
        // Only top-level members count, and only exact keys.
        Case(
            input: #"{"a":{"_soupEntryId":5},"b":[{"_soupLastModifiedDate":1}]}"#, entryID: nil, lastModified: nil,
            canonical: true, stored: #"{"a":{"_soupEntryId":5},"b":[{"_soupLastModifiedDate":1}],"_soupEntryId":9,"_soupLastModifiedDate":100}"#),
        Case(
            input: #"{"_soupEntryIdx":5,"_soupEntryI":6,"_SOUPENTRYID":7}"#, entryID: nil, lastModified: nil, canonical: true,
            stored: #"{"_soupEntryIdx":5,"_soupEntryI":6,"_SOUPENTRYID":7,"_soupEntryId":9,"_soupLastModifiedDate":100}"#),
        // Non-canonical strings and numbers elsewhere are rewritten the writer's way.
        Case(
            input: #"{"s":"\u00e9\u001F\/","d":1.50,"e":1E2,"_soupEntryId":1}"#, entryID: .integer(1), lastModified: nil,
            canonical: false, stored: #"{"s":"é\u001f/","d":1.5,"e":100.0,"_soupEntryId":9,"_soupLastModifiedDate":100}"#),
        Case(
            input: #"{"s":"é\"\\\n\u001f","d":1.5,"e":100.0,"f":1e-05,"g":1e+16}"#, entryID: nil, lastModified: nil,
            canonical: true, stored: #"{"s":"é\"\\\n\u001f","d":1.5,"e":100.0,"f":1e-05,"g":1e+16,"_soupEntryId":9,"_soupLastModifiedDate":100}"#),
    ]

    @Test(arguments: cases) func systemFieldsAreFoundAndSet(_ c: Case) throws {
        let input = bytes(c.input)
        let scan = try systemMembers.inspect(input)
        #expect(scan.isObject)
        #expect(scan.entryID == c.entryID)
        #expect(scan.lastModified == c.lastModified)
        #expect(scan.isCanonical == c.canonical)
        let stored = try scan.stamped(input, entryID: 9, lastModified: 100)
        #expect(String(decoding: stored, as: UTF8.self) == c.stored)
        // And it is what the slow path stores.
        #expect(stored == slowStamp(try JSONReader.parse(input), entryID: 9, lastModified: 100))
    }

    @Test func valueSpansCoverExactlyTheValue() throws {
        let input = bytes("{ \"a\" : 1 , \"_soupEntryId\" :  -42 , \"_soupLastModifiedDate\":null }")
        let scan = try systemMembers.inspect(input)
        let entry = try #require(scan.document.members[0])
        let time = try #require(scan.document.members[1])
        #expect(String(decoding: input[entry.value], as: UTF8.self) == "-42")
        #expect(String(decoding: input[time.value], as: UTF8.self) == "null")
        #expect(input[entry.keyOffset] == UInt8(ascii: "\"") && entry.keyOffset == 12)
    }

    @Test func extremeIntegersAreWrittenExactly() throws {
        let input = bytes(#"{"_soupEntryId":1,"_soupLastModifiedDate":2}"#)
        let scan = try systemMembers.inspect(input)
        #expect(scan.isCanonical)
        let stored = try scan.stamped(input, entryID: .min, lastModified: .max)
        #expect(
            String(decoding: stored, as: UTF8.self)
                == #"{"_soupEntryId":-9223372036854775808,"_soupLastModifiedDate":9223372036854775807}"#)
    }

    @Test(arguments: ["[1,2]", "\"text\"", "42", "null", "[{\"_soupEntryId\":1}]"])
    func otherTopLevelValuesAreNotObjects(_ text: String) throws {
        let scan = try systemMembers.inspect(bytes(text))
        #expect(!scan.isObject)
        #expect(scan.entryID == nil && scan.lastModified == nil)
    }

    @Test(arguments: [
        "", " ", "{", "{\"a\":1,}", "{\"a\":1 \"b\":2}", "{\"_soupEntryId\":1,\"_soupEntryId\":2}",
        "{\"_soupEntryId\":1,\"_soupEntry\\u0049d\":2}", "{\"a\":01}", "{\"a\":\"\\ud800\"}", "{} x",
        "{\"a\":tru}", "{\"a\":1e400}",
    ])
    func invalidDocumentsThrowWhatTheReaderThrows(_ text: String) {
        let want = parseError(text)
        #expect(want != nil)
        #expect(throws: want!) { try systemMembers.inspect(bytes(text)) }
    }

    @Test func limitsAreTheReadersLimits() {
        let input = bytes(#"{"_soupEntryId":1,"s":"abcdef"}"#)
        for limits in [JSONLimits(maxStringBytes: 5), JSONLimits(maxDepth: 0), JSONLimits(maxInputBytes: 20)] {
            let want = parseError(input, limits: limits)
            #expect(want != nil)
            #expect(throws: want!) { try systemMembers.inspect(input, limits: limits) }
        }
    }
}
