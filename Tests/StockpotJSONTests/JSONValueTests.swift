// Pins JSONValue's literals and accessors and JSONObject's ordered-member behaviour.
import Testing
import StockpotJSON

@Suite struct JSONValueTests {
    @Test func literalsBuildTheMatchingCases() {
        let value: JSONValue = ["n": nil, "b": true, "i": 3, "d": 2.5, "s": "x", "a": [1], "o": ["k": 1]]
        let object = value.objectValue
        #expect(object?.keys == ["n", "b", "i", "d", "s", "a", "o"])
        #expect(identical(value["n"], .null))
        #expect(identical(value["b"], .bool(true)))
        #expect(identical(value["i"], .integer(3)))
        #expect(identical(value["d"], .double(2.5)))
        #expect(identical(value["s"], .string("x")))
        #expect(identical(value["a"], .array([.integer(1)])))
        #expect(identical(value["o"], .object(JSONObject([("k", .integer(1))]))))
    }

    @Test func accessorsReturnNilForOtherCases() {
        let values: [JSONValue] = [nil, true, 3, 2.5, "x", [1], ["k": 1]]
        #expect(values.map { $0.objectValue != nil } == [false, false, false, false, false, false, true])
        #expect(values.map { $0.arrayValue != nil } == [false, false, false, false, false, true, false])
        #expect(values.map { $0.stringValue } == [nil, nil, nil, nil, "x", nil, nil])
        #expect(values.map { $0.integerValue } == [nil, nil, 3, nil, nil, nil, nil])
        #expect(values.map { $0.numberValue } == [nil, nil, 3.0, 2.5, nil, nil, nil])
        #expect(values.map(\.isNull) == [true, false, false, false, false, false, false])
        #expect(values.map { $0["k"] != nil } == [false, false, false, false, false, false, true])
    }

    @Test func integersAndDoublesAreDistinctValues() {
        #expect(JSONValue.integer(1) != JSONValue.double(1.0))
    }

    @Test func objectKeepsInsertionOrderAndReplacesInPlace() {
        var object = JSONObject([("b", 1), ("a", 2), ("b", 3)])
        #expect(object.keys == ["b", "a"])
        #expect(object.values == [3, 2])
        object["c"] = 4
        object["b"] = 5
        #expect(object.keys == ["b", "a", "c"])
        #expect(object.values == [5, 2, 4])
        object["a"] = nil
        #expect(object.keys == ["b", "c"])
        #expect(object.count == 2)
        #expect(object["a"] == nil)
        #expect(object["c"] == 4)
    }
}
