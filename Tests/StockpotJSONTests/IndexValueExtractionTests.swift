// Pins IndexValue(document:path:type:) against every cell of the semantics.md table "Index
// types and the value an index holds", compared by case and bits, not by numeric equality.
import Testing
import StockpotJSON

@Suite struct IndexValueExtractionTests {
    struct Cell: Sendable, CustomTestStringConvertible {
        var document: String
        var path: String
        var type: IndexType
        var expected: IndexValue
        var testDescription: String { "\(type.rawValue) \(path) in \(document)" }

        init(_ document: String, _ path: String, _ type: IndexType, _ expected: IndexValue) {
            self.document = document
            self.path = path
            self.type = type
            self.expected = expected
        }
    }

    static let doc = """
        {"i":10,"neg":-2,"d":1.5,"nd":-2.7,"pd":2.7,"big":1e300,"nbig":-1e300,"e":1E2,
         "nz":-0.0,"s":"hello","sn":"10","t":true,"f":false,"n":null,
         "arr":[1,"x",null],"obj":{"b":1,"a":[true]},"empty":[],"eo":{},
         "max":9223372036854775807,"min":-9223372036854775808,"d63":9223372036854775808,
         "d92":9.2e18,"Tags":["grey"],
         "a":[{"b":1},{"c":2},{"b":[3,4]}],"q":"say \\"hi\\"\\n"}
        """

    static let stringCells: [Cell] = [IndexType.string, .fullText].flatMap { type in
        [
            Cell(doc, "i", type, .text("10")),
            Cell(doc, "neg", type, .text("-2")),
            Cell(doc, "d", type, .text("1.5")),
            Cell(doc, "max", type, .text("9223372036854775807")),
            Cell(doc, "min", type, .text("-9223372036854775808")),
            Cell(doc, "s", type, .text("hello")),
            Cell(doc, "sn", type, .text("10")),
            Cell(doc, "q", type, .text("say \"hi\"\n")),
            Cell(doc, "t", type, .text("true")),
            Cell(doc, "f", type, .text("false")),
            Cell(doc, "arr", type, .text("[1,\"x\",null]")),
            Cell(doc, "obj", type, .text("{\"b\":1,\"a\":[true]}")),
            Cell(doc, "empty", type, .text("[]")),
            Cell(doc, "eo", type, .text("{}")),
            Cell(doc, "Tags", type, .text("[\"grey\"]")),
            Cell(doc, "a.b", type, .text("[1,[3,4]]")),
            Cell(doc, "a.c", type, .text("[2]")),
            Cell(doc, "n", type, .null),
            Cell(doc, "missing", type, .null),
            Cell(doc, "a.zz", type, .null),
            Cell(doc, "s.x", type, .null),
        ]
    }

    static let integerCells: [Cell] = [
        Cell(doc, "i", .integer, .integer(10)),
        Cell(doc, "neg", .integer, .integer(-2)),
        Cell(doc, "d", .integer, .integer(1)),
        Cell(doc, "nd", .integer, .integer(-2)),
        Cell(doc, "pd", .integer, .integer(2)),
        Cell(doc, "big", .integer, .integer(.max)),
        Cell(doc, "nbig", .integer, .integer(.min)),
        Cell(doc, "e", .integer, .integer(100)),
        Cell(doc, "nz", .integer, .integer(0)),
        Cell(doc, "max", .integer, .integer(.max)),
        Cell(doc, "min", .integer, .integer(.min)),
        Cell(doc, "d63", .integer, .integer(.max)),
        Cell(doc, "d92", .integer, .integer(9_200_000_000_000_000_000)),
        Cell(doc, "s", .integer, .null),
        Cell(doc, "sn", .integer, .null),
        Cell(doc, "t", .integer, .null),
        Cell(doc, "f", .integer, .null),
        Cell(doc, "arr", .integer, .null),
        Cell(doc, "obj", .integer, .null),
        Cell(doc, "a.b", .integer, .null),
        Cell(doc, "n", .integer, .null),
        Cell(doc, "missing", .integer, .null),
    ]

    static let floatingCells: [Cell] = [
        Cell(doc, "i", .floating, .double(10.0)),
        Cell(doc, "d", .floating, .double(1.5)),
        Cell(doc, "nd", .floating, .double(-2.7)),
        Cell(doc, "big", .floating, .double(1e300)),
        Cell(doc, "nz", .floating, .double(-0.0)),
        Cell(doc, "max", .floating, .double(9_223_372_036_854_775_807.0)),
        Cell(doc, "min", .floating, .double(-9_223_372_036_854_775_808.0)),
        Cell(doc, "s", .floating, .null),
        Cell(doc, "sn", .floating, .null),
        Cell(doc, "t", .floating, .null),
        Cell(doc, "f", .floating, .null),
        Cell(doc, "arr", .floating, .null),
        Cell(doc, "obj", .floating, .null),
        Cell(doc, "a.b", .floating, .null),
        Cell(doc, "n", .floating, .null),
        Cell(doc, "missing", .floating, .null),
    ]

    static let json1Cells: [Cell] = [
        Cell(doc, "i", .json1, .integer(10)),
        Cell(doc, "max", .json1, .integer(.max)),
        Cell(doc, "d", .json1, .double(1.5)),
        Cell(doc, "e", .json1, .double(100.0)),
        Cell(doc, "nz", .json1, .double(-0.0)),
        Cell(doc, "d63", .json1, .double(9_223_372_036_854_775_808.0)),
        Cell(doc, "s", .json1, .text("hello")),
        Cell(doc, "sn", .json1, .text("10")),
        Cell(doc, "q", .json1, .text("say \"hi\"\n")),
        Cell(doc, "t", .json1, .integer(1)),
        Cell(doc, "f", .json1, .integer(0)),
        Cell(doc, "arr", .json1, .text("[1,\"x\",null]")),
        Cell(doc, "obj", .json1, .text("{\"b\":1,\"a\":[true]}")),
        Cell(doc, "Tags", .json1, .text("[\"grey\"]")),
        Cell(doc, "a", .json1, .text("[{\"b\":1},{\"c\":2},{\"b\":[3,4]}]")),
        Cell(doc, "obj.b", .json1, .integer(1)),
        Cell(doc, "obj.a", .json1, .text("[true]")),
        Cell(doc, "a.b", .json1, .null),  // through an array: no traversal
        Cell(doc, "a.c", .json1, .null),
        Cell(doc, "n", .json1, .null),
        Cell(doc, "missing", .json1, .null),
        Cell("{\"a\":[{\"b\":1}]}", "a.b", .json1, .null),
        Cell("{\"a\":[{\"b\":1}]}", "a", .json1, .text("[{\"b\":1}]")),
        Cell("{\"a\":[{\"b\":{\"c\":1}}]}", "a.b.c", .json1, .null),
    ]

    @Test(arguments: stringCells + integerCells + floatingCells + json1Cells)
    func indexValueMatchesTheSemanticsTable(_ cell: Cell) throws {
        let document = try JSONReader.parse(cell.document, limits: .default)
        let value = IndexValue(document: document, path: JSONPath(cell.path), type: cell.type)
        #expect(identical(value, cell.expected), "got \(value), expected \(cell.expected)")
    }

    @Test func stringIndexOfADoubleIsTheWritersText() {
        // "Its JSON text" for a double is the writer's shortest form, whatever the input spelling.
        for (input, value) in [
            ("1.50", 1.5), ("1E2", 100.0), ("-0.0", -0.0), ("1e300", 1e300),
            ("0.1", 0.1), ("5e-324", .leastNonzeroMagnitude),
        ] {
            guard let document = parsed("{\"x\":" + input + "}") else {
                Issue.record("rejected \(input)")
                continue
            }
            let expected = IndexValue.text(JSONValue.double(value).jsonText)
            for type in [IndexType.string, .fullText] {
                let got = IndexValue(document: document, path: JSONPath("x"), type: type)
                #expect(identical(got, expected), "\(input) as \(type.rawValue): \(got)")
            }
        }
    }

    @Test func everyTypeIndexesNullAndMissingAsNull() throws {
        let document = try JSONReader.parse("{\"a\":null,\"b\":{\"c\":null}}", limits: .default)
        for type in IndexType.allCases {
            for path in ["a", "a1", "b.c", "b.d", "a.x", "zz.yy"] {
                let value = IndexValue(document: document, path: JSONPath(path), type: type)
                #expect(identical(value, .null), "\(type.rawValue) \(path): \(value)")
            }
        }
    }
}
