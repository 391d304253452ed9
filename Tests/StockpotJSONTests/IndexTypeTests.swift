// Pins IndexType's names: lower-case raw values and case-insensitive parsing of exactly those.
import Testing
import StockpotJSON

@Suite struct IndexTypeTests {
    @Test func rawValuesAreTheLowerCaseNames() {
        #expect(IndexType.allCases.map(\.rawValue) == ["string", "integer", "floating", "full_text", "json1"])
    }

    @Test(arguments: [
        ("string", IndexType.string), ("String", .string), ("STRING", .string),
        ("integer", .integer), ("Integer", .integer), ("floating", .floating), ("FLOATING", .floating),
        ("full_text", .fullText), ("FULL_TEXT", .fullText), ("Full_Text", .fullText),
        ("json1", .json1), ("JSON1", .json1), ("Json1", .json1),
    ])
    func parsingIgnoresCase(name: String, expected: IndexType) {
        #expect(IndexType(parsing: name) == expected)
    }

    @Test(arguments: [
        "", "fulltext", "full-text", "text", "int", "float", "json", " string",
        "string ", "strings", "jsön1",
    ])
    func unknownNamesDoNotParse(name: String) {
        #expect(IndexType(parsing: name) == nil)
    }

    @Test func everyRawValueParsesBackToItsCase() {
        for type in IndexType.allCases {
            #expect(IndexType(parsing: type.rawValue) == type)
            #expect(IndexType(rawValue: type.rawValue) == type)
        }
    }
}
