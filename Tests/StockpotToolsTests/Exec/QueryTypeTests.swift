// Every query type end to end through `stockpot exec`: exact, range (open at either end), like
// (ASCII case folding, `_` over scalars), match (operators, phrases, prefixes, column filters,
// indexPath, malformed expressions with their position), ordering, counts, selectPaths rows,
// cursors over them, and removeFromSoup with a query spec removing only the first page.

import StockpotJSON
import Testing

@Suite struct QueryTypeTests {
    /// Soup `p` with specs name:string, age:integer, bio:full_text, note:full_text and six
    /// entries, ids 1...6.
    private func populated() throws -> (TemporaryStore, ExecProcess) {
        let store = TemporaryStore()
        let exec = try store.exec(["--durability", "none"])
        try exec.result([
            "op": "registerSoup", "soupName": "p",
            "indexSpecs": [
                ["path": "name", "type": "string"], ["path": "age", "type": "integer"],
                ["path": "bio", "type": "full_text"], ["path": "note", "type": "full_text"],
            ],
        ])
        try exec.result([
            "op": "upsertSoupEntries", "soupName": "p",
            "entries": [
                ["name": "Ann", "age": 30, "bio": "Loves red apples", "note": "blue"],
                ["name": "bob", "age": 25, "bio": "Élan and apple pie", "note": "red"],
                ["name": "Ängel", "age": "40", "bio": "green tea", "note": "apple"],
                ["name": "anna", "age": 35.9, "bio": "red green blue", "note": nil],
                ["name": "Cy", "bio": "apple red", "note": "tea"],
                ["name": "100", "age": 100, "bio": "o'brien's {p:note}:tea", "note": "x"],
            ],
        ])
        return (store, exec)
    }

    private func ids(_ exec: ExecProcess, _ spec: JSONValue) throws -> [Int64] {
        var spec = spec
        if case .object(var object) = spec, object["pageSize"] == nil {
            object["pageSize"] = 50
            spec = .object(object)
        }
        let cursor = try exec.result(["op": "querySoup", "soupName": "p", "querySpec": spec])
        let count = try exec.result(["op": "countQuery", "soupName": "p", "querySpec": spec])
        #expect(cursor["totalEntries"] == count, "\(spec.jsonText)")
        return cursor["currentPageOrderedEntries"]?.arrayValue?.compactMap { $0["_soupEntryId"]?.integerValue } ?? []
    }

    @Test func exactAndRangeFollowKeyConversionAndOrder() throws {
        let (_, exec) = try populated()
        #expect(try ids(exec, ["queryType": "exact", "indexPath": "name", "matchKey": "Ann"]) == [1])
        #expect(try ids(exec, ["queryType": "exact", "indexPath": "name", "matchKey": 100]) == [6])
        #expect(try ids(exec, ["queryType": "exact", "indexPath": "age", "matchKey": "35"]) == [4])
        #expect(try ids(exec, ["queryType": "range", "indexPath": "age", "beginKey": 26, "endKey": 40]) == [1, 4])
        #expect(try ids(exec, ["queryType": "range", "indexPath": "age", "beginKey": 30]) == [1, 4, 6])
        #expect(try ids(exec, ["queryType": "range", "indexPath": "age", "endKey": 30, "order": "descending"]) == [1, 2])
        #expect(try ids(exec, ["queryType": "range", "indexPath": "name", "beginKey": "A", "endKey": "Z"]) == [1, 5])
        #expect(try ids(exec, ["queryType": "exact", "indexPath": "unindexed", "matchKey": 1]) == [])
    }

    @Test func anExactQueryOnNullMatchesNothing() throws {
        let (_, exec) = try populated()
        // semantics.md: exact never matches null, on an indexed path or not.
        #expect(try ids(exec, ["queryType": "exact", "indexPath": "name", "matchKey": nil]) == [])
        #expect(try ids(exec, ["queryType": "exact", "indexPath": "unindexed", "matchKey": nil]) == [])
    }

    @Test func likeFoldsASCIIOnly() throws {
        let (_, exec) = try populated()
        #expect(try ids(exec, ["queryType": "like", "indexPath": "name", "likeKey": "an%"]) == [1, 4])
        #expect(try ids(exec, ["queryType": "like", "indexPath": "name", "likeKey": "än%"]) == [])
        #expect(try ids(exec, ["queryType": "like", "indexPath": "name", "likeKey": "_ngel"]) == [3])
        #expect(try ids(exec, ["queryType": "like", "indexPath": "name", "likeKey": "%b%", "orderPath": "_soupEntryId"]) == [2])
        #expect(try ids(exec, ["queryType": "like", "indexPath": "age", "likeKey": "3%"]) == [1, 4])
    }

    @Test func matchSpeaksTheExpressionLanguage() throws {
        let (_, exec) = try populated()
        func match(_ expression: String, path: String? = nil) throws -> [Int64] {
            var spec = JSONObject([("queryType", "match"), ("matchKey", .string(expression)), ("orderPath", "_soupEntryId")])
            if let path { spec["indexPath"] = .string(path) }
            return try ids(exec, .object(spec))
        }
        #expect(try match("apple") == [2, 3, 5])
        #expect(try match("apple", path: "bio") == [2, 5])
        #expect(try match("APPLE*", path: "bio") == [1, 2, 5])
        #expect(try match("red NOT apples") == [2, 4, 5])
        #expect(try match("elan") == [2])
        #expect(try match("\"red green\"") == [4])
        #expect(try match("{p:note}:tea") == [5])
        #expect(try match("tea OR blue", path: "note") == [1, 5])
        #expect(try match("o'brien's") == [6])
        #expect(try match("apple NOt") == [])
        let failure = try exec.send(["op": "querySoup", "soupName": "p", "querySpec": ["queryType": "match", "matchKey": "red OR"]])
        #expect(failure["error"]?["code"] == "invalid_query")
        #expect(failure["error"]?["message"]?.stringValue?.contains("character 6") == true, "\(failure.jsonText)")
        let unknownColumn = try exec.send(["op": "querySoup", "soupName": "p", "querySpec": ["queryType": "match", "matchKey": "{p:name}:ann"]])
        #expect(unknownColumn["error"]?["code"] == "invalid_query")
    }

    @Test func selectPathsRowsAndCursorsWorkForEveryType() throws {
        let (_, exec) = try populated()
        let cursor = try exec.result([
            "op": "querySoup", "soupName": "p",
            "querySpec": [
                "queryType": "match", "matchKey": "red", "indexPath": "bio", "pageSize": 2, "selectPaths": ["name", "age", "_soupEntryId"],
            ],
        ])
        // Ordered by bio's text: "Loves red apples", "apple red", "red green blue".
        #expect(cursor["totalEntries"] == 3)
        #expect(cursor["totalPages"] == 2)
        #expect(cursor["currentPageOrderedEntries"] == [["Ann", 30, 1], ["Cy", nil, 5]])
        let next = try exec.result(["op": "moveCursorToPageIndex", "cursorId": cursor["cursorId"] ?? nil, "index": 1])
        #expect(next["currentPageOrderedEntries"] == [["anna", 35, 4]])
    }

    @Test func removeFromSoupWithASpecRemovesTheFirstPageOnly() throws {
        let (_, exec) = try populated()
        try exec.result([
            "op": "removeFromSoup", "soupName": "p",
            "querySpec": ["queryType": "range", "indexPath": "age", "beginKey": 0, "pageSize": 2, "order": "descending"],
        ])
        // Ages descending: 100 (6), 35 (4), 30 (1), 25 (2); the first page is 6 and 4.
        #expect(try ids(exec, ["queryType": "all", "orderPath": "_soupEntryId"]) == [1, 2, 3, 5])
    }
}
