// Soup operations end to end: register, exists, names in byte order, specs in registration
// order with lower-case types, alter, reindex, clear (ids not reused) and remove.

import StockpotJSON
import Testing

@Suite struct SoupOperationTests {
    @Test func specsComeBackInOrderWithLowerCaseTypes() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        let name = try exec.result([
            "op": "registerSoup", "soupName": "accounts",
            "indexSpecs": [
                ["path": "Name", "type": "String"], ["path": "age", "type": "INTEGER", "unique": true],
                ["path": "score", "type": "Floating"], ["path": "bio", "type": "full_TEXT"],
                ["path": "Owner.Id", "type": "json1", "unique": false],
            ],
        ])
        #expect(name == "accounts")
        let specs = try exec.result(["op": "getSoupIndexSpecs", "soupName": "accounts"])
        #expect(
            specs == [
                ["path": "Name", "type": "string"], ["path": "age", "type": "integer", "unique": true],
                ["path": "score", "type": "floating"], ["path": "bio", "type": "full_text"],
                ["path": "Owner.Id", "type": "json1"],
            ])
    }

    @Test func registeringAnExistingSoupKeepsItsSpecs() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        try exec.result(["op": "registerSoup", "soupName": "s", "indexSpecs": [["path": "a", "type": "string"]]])
        #expect(try exec.result(["op": "registerSoup", "soupName": "s", "indexSpecs": [["path": "b", "type": "integer"]]]) == "s")
        #expect(try exec.result(["op": "getSoupIndexSpecs", "soupName": "s"]) == [["path": "a", "type": "string"]])
    }

    @Test func soupNamesAreListedInByteOrder() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        #expect(try exec.result(["op": "getAllSoupNames"]) == [])
        for name in ["b", "é", "B", "aa", "Z", "a"] {
            try exec.result(["op": "registerSoup", "soupName": .string(name), "indexSpecs": [["path": "k", "type": "string"]]])
        }
        #expect(try exec.result(["op": "getAllSoupNames"]) == ["B", "Z", "a", "aa", "b", "é"])
        #expect(try exec.result(["op": "soupExists", "soupName": "aa"]) == true)
        #expect(try exec.result(["op": "soupExists", "soupName": "AA"]) == false)
    }

    @Test func namesAndPathsAtTheLimitAreAccepted() throws {
        let store = TemporaryStore()
        let exec = try store.exec(["--max-soup-name-bytes", "16", "--max-index-path-bytes", "16"])
        let name = String(repeating: "ü", count: 8)  // 16 UTF-8 bytes
        let path = String(repeating: "p", count: 16)
        #expect(
            try exec.result(["op": "registerSoup", "soupName": .string(name), "indexSpecs": [["path": .string(path), "type": "string"]]])
                == .string(name))
        #expect(try exec.result(["op": "getSoupIndexSpecs", "soupName": .string(name)]) == [["path": .string(path), "type": "string"]])
        #expect(
            try exec.errorCode(["op": "registerSoup", "soupName": .string(name + "x"), "indexSpecs": [["path": "k", "type": "string"]]])
                == "invalid_soup_name")
    }

    @Test func alterSoupChangesSpecsAndKeepsEntries() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        try exec.result(["op": "registerSoup", "soupName": "s", "indexSpecs": [["path": "a", "type": "string"]]])
        let stored = try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": [["a": "x", "b": 2]]])
        #expect(
            try exec.result(["op": "alterSoup", "soupName": "s", "indexSpecs": [["path": "b", "type": "Integer"]], "reIndexData": false]) == "s")
        #expect(try exec.result(["op": "getSoupIndexSpecs", "soupName": "s"]) == [["path": "b", "type": "integer"]])
        #expect(
            try exec.result([
                "op": "alterSoup", "soupName": "s", "indexSpecs": [["path": "b", "type": "integer"], ["path": "a", "type": "string"]],
            ]) == "s")
        #expect(try exec.result(["op": "reIndexSoup", "soupName": "s", "paths": ["a", "b"]]) == nil)
        #expect(try exec.result(["op": "retrieveSoupEntries", "soupName": "s", "entryIds": [1]]) == stored)
    }

    @Test func clearSoupRemovesEntriesAndKeepsIdsGoing() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        try exec.result(["op": "registerSoup", "soupName": "s", "indexSpecs": [["path": "a", "type": "string"]]])
        try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": [["a": "1"], ["a": "2"], ["a": "3"]]])
        #expect(try exec.result(["op": "clearSoup", "soupName": "s"]) == nil)
        #expect(try exec.result(["op": "retrieveSoupEntries", "soupName": "s", "entryIds": [1, 2, 3]]) == [])
        #expect(try exec.result(["op": "countQuery", "soupName": "s", "querySpec": ["queryType": "all"]]) == 0)
        #expect(try exec.nextEntryId(in: "s") == 4)
        #expect(try exec.result(["op": "getSoupIndexSpecs", "soupName": "s"]) == [["path": "a", "type": "string"]])
    }

    @Test func removeSoupRemovesItAndIgnoresMissingSoups() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        #expect(try exec.result(["op": "removeSoup", "soupName": "never"]) == nil)
        try exec.result(["op": "registerSoup", "soupName": "s", "indexSpecs": [["path": "a", "type": "string"]]])
        try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": [["a": "1"]]])
        #expect(try exec.result(["op": "removeSoup", "soupName": "s"]) == nil)
        #expect(try exec.result(["op": "soupExists", "soupName": "s"]) == false)
        #expect(try exec.result(["op": "getAllSoupNames"]) == [])
        #expect(try exec.errorCode(["op": "retrieveSoupEntries", "soupName": "s", "entryIds": [1]]) == "soup_not_found")
    }
}
