// The change-feed operations end to end through `stockpot exec`: getLastSeq, getChanges (its
// shape, paging, soup filter, each change kind, bad arguments) and purgeTombstones with
// changes_expired, and the newid default as getSoupIndexSpecs reports it.

import StockpotJSON
import Testing

@Suite struct ChangeFeedOperationTests {
    /// A store where: s registered (seq 1); entries 1-3 inserted (2-4); entry 1 updated (5);
    /// entry 2 deleted (6); t registered (7), an entry inserted (8), cleared (9), removed (10).
    private func populated() throws -> (TemporaryStore, ExecProcess, key2: JSONValue) {
        let store = TemporaryStore()
        let exec = try store.exec()
        #expect(try exec.result(["op": "getLastSeq"]) == 0)
        try exec.result([
            "op": "registerSoup", "soupName": "s",
            "indexSpecs": [["path": "key", "type": "string", "unique": true, "default": "newid"], ["path": "n", "type": "integer"]],
        ])
        #expect(try exec.result(["op": "getLastSeq"]) == 1)
        let stored = try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": [["n": 1], ["n": 2], ["n": 3]]])
        let keys = stored.arrayValue?.map { $0["key"] ?? nil } ?? []
        try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": [["_soupEntryId": 1, "key": keys[0], "n": 10]]])
        try exec.result(["op": "removeFromSoup", "soupName": "s", "entryIds": [2]])
        try exec.result(["op": "registerSoup", "soupName": "t", "indexSpecs": [["path": "n", "type": "integer"]]])
        try exec.result(["op": "upsertSoupEntries", "soupName": "t", "entries": [["n": 7]]])
        try exec.result(["op": "clearSoup", "soupName": "t"])
        try exec.result(["op": "removeSoup", "soupName": "t"])
        #expect(try exec.result(["op": "getLastSeq"]) == 10)
        return (store, exec, keys[1])
    }

    @Test func changesHaveTheProtocolShape() throws {
        let (_, exec, key2) = try populated()
        #expect(key2.stringValue?.count == 36)
        #expect(
            try exec.result(["op": "getSoupIndexSpecs", "soupName": "s"]) == [
                ["path": "key", "type": "string", "unique": true, "default": "newid"], ["path": "n", "type": "integer"],
            ])
        let all = try exec.result(["op": "getChanges", "since": 0])
        #expect(all.objectValue?.keys == ["changes", "lastSeq", "more"])
        let changes = all["changes"]?.arrayValue ?? []
        #expect(changes.map { $0["seq"]?.integerValue ?? 0 } == [4, 5, 6, 9, 10])
        #expect(changes.map { $0["op"]?.stringValue ?? "" } == ["upsert", "upsert", "delete", "clear", "removeSoup"])
        #expect(all["lastSeq"] == 10)
        #expect(all["more"] == false)
        #expect(changes[0].objectValue?.keys == ["seq", "soupName", "op", "entry"])
        #expect(changes[0]["entry"]?["n"] == 3 && changes[0]["soupName"] == "s")
        #expect(changes[1]["entry"]?["n"] == 10 && changes[1]["entry"]?["_soupEntryId"] == 1)
        #expect(changes[2] == ["seq": 6, "soupName": "s", "op": "delete", "id": 2, "key": key2])
        #expect(changes[3] == ["seq": 9, "soupName": "t", "op": "clear"])
        #expect(changes[4] == ["seq": 10, "soupName": "t", "op": "removeSoup"])
    }

    @Test func pagesResumeFromLastSeqAndSoupsFilter() throws {
        let (_, exec, _) = try populated()
        var since: Int64 = 0
        var sequences: [Int64] = []
        var pages = 0
        while true {
            let page = try exec.result(["op": "getChanges", "since": .integer(since), "limit": 2])
            sequences += page["changes"]?.arrayValue?.compactMap { $0["seq"]?.integerValue } ?? []
            since = page["lastSeq"]?.integerValue ?? since
            pages += 1
            guard page["more"] == true, pages < 10 else { break }
        }
        #expect(sequences == [4, 5, 6, 9, 10])
        #expect(pages == 3)
        let onlyS = try exec.result(["op": "getChanges", "since": 0, "soupNames": ["s"]])
        #expect(onlyS["changes"]?.arrayValue?.compactMap { $0["seq"]?.integerValue } == [4, 5, 6])
        #expect(onlyS["lastSeq"] == 6)
        // Nothing after the last sequence: the page is empty and lastSeq is `since`.
        #expect(try exec.result(["op": "getChanges", "since": 10]) == ["changes": [], "lastSeq": 10, "more": false])
    }

    @Test func purgedTombstonesExpireEarlierPositions() throws {
        let (_, exec, _) = try populated()
        #expect(try exec.result(["op": "purgeTombstones", "through": 9]) == .null)
        #expect(try exec.result(["op": "getLastSeq"]) == 11)
        #expect(try exec.errorCode(["op": "getChanges", "since": 0]) == "changes_expired")
        #expect(try exec.errorCode(["op": "getChanges", "since": 8]) == "changes_expired")
        let after = try exec.result(["op": "getChanges", "since": 9])
        #expect(after["changes"]?.arrayValue?.compactMap { $0["seq"]?.integerValue } == [10])
        // A position this store never reached.
        #expect(try exec.errorCode(["op": "getChanges", "since": 12]) == "changes_expired")
    }

    @Test func badArgumentsAreBadRequests() throws {
        let (_, exec, _) = try populated()
        for request: JSONValue in [
            ["op": "getChanges"], ["op": "getChanges", "since": -1], ["op": "getChanges", "since": "0"],
            ["op": "getChanges", "since": 0, "limit": 0], ["op": "getChanges", "since": 0, "limit": 100_001],
            ["op": "getChanges", "since": 0, "soupNames": "s"],
            ["op": "purgeTombstones"], ["op": "purgeTombstones", "through": -5],
        ] {
            #expect(try exec.errorCode(request) == "bad_request", "\(request)")
        }
        #expect(
            try exec.errorCode([
                "op": "registerSoup", "soupName": "u", "indexSpecs": [["path": "k", "type": "integer", "default": "newid"]],
            ]) == "invalid_index_spec")
        #expect(
            try exec.errorCode([
                "op": "registerSoup", "soupName": "u", "indexSpecs": [["path": "k", "type": "string", "default": "uuid4"]],
            ]) == "invalid_index_spec")
    }
}
