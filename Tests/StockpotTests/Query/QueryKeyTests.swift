// Key conversion as semantics.md states it, through the store: numeric strings are numbers
// for integer and floating indexes, numbers are text for string indexes, json1 compares keys
// as given, and null keys or values never match.

import Testing
@testable import Stockpot
import StockpotTestSupport

@Suite struct QueryKeyTests {
    func ids(_ store: Store, _ spec: QuerySpec) throws -> [Int64] {
        try store.query(spec, in: "s").rows.map { $0["_soupEntryId"]?.integerValue ?? -1 }
    }

    func exact(_ path: String, _ key: JSONValue) -> QuerySpec {
        var spec = QuerySpec(queryType: .exact)
        spec.indexPath = path
        spec.matchKey = key
        spec.pageSize = 100
        return spec
    }

    @Test func keysAreConvertedToTheIndexType() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(directory: directory, options: fastOptions())
            defer { try? store.close() }
            try store.registerSoup(
                "s",
                indexSpecs: [
                    IndexSpec(path: "i", type: .integer), IndexSpec(path: "s", type: .string), IndexSpec(path: "j", type: .json1),
                ])
            try store.upsert(
                [
                    ["i": 10, "s": 10, "j": 10], ["i": "10", "s": "10", "j": "10"], ["i": 10.7, "s": 2.5, "j": true], ["i": nil, "s": nil, "j": nil],
                ], into: "s")
            #expect(try ids(store, exact("i", "10")) == [1, 3])  // 10.7 truncates to 10; the string "10" is null
            #expect(try ids(store, exact("i", " 10 ")) == [1, 3])
            #expect(try ids(store, exact("i", 10.0)) == [1, 3])
            #expect(try ids(store, exact("i", "ten")) == [])
            #expect(try ids(store, exact("s", 10)) == [1, 2])  // the number's text
            #expect(try ids(store, exact("s", 2.5)) == [3])
            #expect(try ids(store, exact("j", 10)) == [1])  // json1: as given
            #expect(try ids(store, exact("j", "10")) == [2])
            #expect(try ids(store, exact("j", true)) == [3])
            #expect(try ids(store, exact("i", nil)) == [])
            #expect(try ids(store, exact("unindexed", nil)) == [])
        }
    }
}
