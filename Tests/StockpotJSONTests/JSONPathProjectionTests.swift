// Pins JSONPath splitting and JSONValue.project per semantics.md "Paths": keys through objects,
// element-wise through arrays dropping missing results, internal nodes, null versus missing.
import Testing
import StockpotJSON

@Suite struct JSONPathProjectionTests {
    @Test func pathIsSplitOnDots() {
        let path = JSONPath("a.b.c")
        #expect(path.components == ["a", "b", "c"])
        #expect(path.text == "a.b.c")
        #expect(JSONPath("Name").components == ["Name"])
        #expect(JSONPath("a.b") == JSONPath("a.b"))
        #expect(JSONPath("a.b") != JSONPath("a.c"))
    }

    static func doc(_ text: String) -> JSONValue {
        parsed(text) ?? .string("unparseable test document: \(text)")
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var document: String
        var path: String
        var expected: JSONValue?
        var testDescription: String { "\(path) in \(document)" }
    }

    static let cases: [Case] = [
        // Objects by key.
        Case(document: "{\"a\":1}", path: "a", expected: 1),
        Case(document: "{\"a\":{\"b\":{\"c\":\"x\"}}}", path: "a.b.c", expected: "x"),
        Case(document: "{\"a\":{\"b\":1}}", path: "a.c", expected: nil),
        Case(document: "{\"a\":1}", path: "a.b", expected: nil),
        Case(document: "{\"a\":\"str\"}", path: "a.b", expected: nil),
        Case(document: "{\"A\":1}", path: "a", expected: nil),
        // Null is a value; a missing key is missing.
        Case(document: "{\"a\":null}", path: "a", expected: .null),
        Case(document: "{\"a\":null}", path: "a1", expected: nil),
        Case(document: "{\"a\":null}", path: "a.b", expected: nil),
        // Internal nodes yield the container.
        Case(document: "{\"a\":{\"b\":1,\"c\":[2]}}", path: "a", expected: ["b": 1, "c": [2]]),
        Case(document: "{\"a\":[1,\"x\",null]}", path: "a", expected: [1, "x", nil]),
        Case(document: "{\"a\":[]}", path: "a", expected: .array([])),
        Case(document: "{\"a\":{}}", path: "a", expected: .object(JSONObject())),
        // Through arrays: element-wise, missing dropped, nested arrays stay nested.
        Case(document: "{\"a\":[{\"b\":1},{\"c\":2},{\"b\":[3,4]}]}", path: "a.b", expected: [1, [3, 4]]),
        Case(document: "{\"a\":[{\"b\":1},{\"c\":2},{\"b\":[3,4]}]}", path: "a.c", expected: [2]),
        Case(document: "{\"a\":[{\"b\":1},{\"c\":2},{\"b\":[3,4]}]}", path: "a.c.d", expected: nil),
        Case(document: "{\"a\":[[{\"b\":1}],[{\"b\":2},{\"x\":0}]]}", path: "a.b", expected: [[1], [2]]),
        Case(document: "{\"a\":[[{\"x\":1}],[{\"b\":2}]]}", path: "a.b", expected: [[2]]),
        Case(document: "{\"a\":[{\"b\":null},{\"c\":1}]}", path: "a.b", expected: [nil]),
        Case(document: "{\"a\":[1,2,\"b\"]}", path: "a.b", expected: nil),
        Case(document: "{\"a\":[]}", path: "a.b", expected: nil),
        Case(
            document: "{\"a\":[{\"b\":{\"c\":1}},{\"b\":{\"d\":2}},{\"b\":{\"c\":3}}]}", path: "a.b.c",
            expected: [1, 3]),
        Case(
            document: "{\"a\":[{\"b\":[{\"c\":1},{\"c\":2}]},{\"b\":[{\"d\":0}]},{\"b\":[{\"c\":3}]}]}",
            path: "a.b.c", expected: [[1, 2], [3]]),
        Case(document: "{\"a\":[{\"b\":{\"x\":1}}]}", path: "a.b", expected: [["x": 1]]),
        Case(document: "{\"Tags\":[\"grey\"]}", path: "Tags", expected: ["grey"]),
        // A top-level array is walked like any other.
        Case(document: "[{\"a\":1},{\"b\":2},{\"a\":3}]", path: "a", expected: [1, 3]),
        Case(document: "[1,2]", path: "a", expected: nil),
        // A scalar document has no keys.
        Case(document: "5", path: "a", expected: nil),
        // Keys with escapes match their decoded text.
        Case(document: "{\"N\\u0061me\":\"x\"}", path: "Name", expected: "x"),
    ]

    @Test(arguments: cases)
    func projectionFollowsThePathRules(_ c: Case) {
        let result = Self.doc(c.document).project(JSONPath(c.path))
        #expect(
            identical(result, c.expected),
            "got \(result.map(debugText) ?? "missing"), expected \(c.expected.map(debugText) ?? "missing")")
    }

    @Test func projectionLeavesDoublesAndOrderUntouched() {
        let document = Self.doc("{\"a\":[{\"b\":-0.0},{\"b\":{\"z\":1,\"y\":2}}]}")
        let result = document.project(JSONPath("a.b"))
        #expect(identical(result, [.double(-0.0), ["z": 1, "y": 2]]))
    }
}
