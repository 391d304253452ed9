// Entry operations end to end: upsert, retrieve and remove round trips, system fields, whole
// replacement, external ids, ids never reused (after deletes, clearSoup and reopening), and
// documents kept exactly (key order, integer and double kinds).

import StockpotJSON
import Testing

@Suite struct EntryOperationTests {
    private func register(_ exec: ExecProcess, _ soup: String = "s", paths: [String] = ["k"]) throws {
        try exec.result([
            "op": "registerSoup", "soupName": .string(soup),
            "indexSpecs": .array(paths.map { ["path": .string($0), "type": "string"] }),
        ])
    }

    /// The document without its system fields.
    private func userFields(_ entry: JSONValue?) -> JSONValue? {
        guard var object = entry?.objectValue else { return nil }
        object["_soupEntryId"] = nil
        object["_soupLastModifiedDate"] = nil
        return .object(object)
    }

    @Test func upsertRetrieveRemoveRoundTrip() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        try register(exec)
        let stored = try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": [["k": "a"], ["k": "b", "n": 1]]])
        #expect(stored[0]?["_soupEntryId"] == 1)
        #expect(stored[1]?["_soupEntryId"] == 2)
        #expect(userFields(stored[1]) == ["k": "b", "n": 1])
        let modified = try #require(stored[0]?["_soupLastModifiedDate"]?.integerValue)
        #expect(modified > 1_700_000_000_000, "milliseconds since the epoch")

        let retrieved = try exec.result(["op": "retrieveSoupEntries", "soupName": "s", "entryIds": [2, 99, 1, 2]])
        #expect(retrieved == [stored[1]!, stored[0]!, stored[1]!])
        #expect(try exec.result(["op": "removeFromSoup", "soupName": "s", "entryIds": [1, 99]]) == nil)
        #expect(try exec.result(["op": "retrieveSoupEntries", "soupName": "s", "entryIds": [1, 2]]) == [stored[1]!])
        #expect(try exec.result(["op": "retrieveSoupEntries", "soupName": "s", "entryIds": []]) == [])
    }

    @Test func keyOrderAndNumberKindsAreKept() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        try register(exec)
        let line =
            #"{"op":"upsertSoupEntries","soupName":"s","entries":[{"z":1,"a":2.0,"m":{"y":1e2,"b":-0.0,"a":[0.1,-3]},"big":12345678901234567890,"min":-9223372036854775808,"k":"é\n\u0000"}]}"#
        let stored = try exec.result(line: line)
        let expected: JSONValue = [
            "z": 1, "a": .double(2), "m": ["y": .double(100), "b": .double(-0.0), "a": [0.1, -3]],
            "big": .double(1.2345678901234567e19), "min": .integer(.min), "k": "é\n\u{0}",
        ]
        #expect(userFields(stored[0]) == expected)
        #expect(stored[0]?.objectValue?.keys.prefix(6) == ["z", "a", "m", "big", "min", "k"])
        // A second process reads the same bytes back.
        #expect(try exec.finish().status == 0)
        let reopened = try store.exec()
        let retrieved = try reopened.result(["op": "retrieveSoupEntries", "soupName": "s", "entryIds": [1]])
        #expect(retrieved == [stored[0]!])
        if case .double(let negativeZero)? = retrieved[0]?["m"]?["b"] {
            #expect(negativeZero.sign == .minus, "-0.0 lost its sign")
        } else {
            Issue.record("-0.0 did not come back as a double: \(retrieved.jsonText)")
        }
    }

    @Test func updateReplacesTheWholeEntry() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        try register(exec)
        try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": [["k": "a", "old": true], ["k": "b"]]])
        let updated = try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": [["_soupEntryId": 1, "k": "c"]]])
        #expect(updated[0]?["_soupEntryId"] == 1)
        let retrieved = try exec.result(["op": "retrieveSoupEntries", "soupName": "s", "entryIds": [1]])
        #expect(userFields(retrieved[0]) == ["k": "c"])
        #expect(try exec.nextEntryId(in: "s") == 3)
    }

    @Test func externalIdInsertsThenReplaces() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        try register(exec, paths: ["ext"])
        let first = try exec.result(["op": "upsertSoupEntries", "soupName": "s", "externalIdPath": "ext", "entries": [["ext": "k1", "v": 1]]])
        #expect(first[0]?["_soupEntryId"] == 1)
        let replaced = try exec.result([
            "op": "upsertSoupEntries", "soupName": "s", "externalIdPath": "ext", "entries": [["ext": "k1", "v": 2], ["ext": "k2", "v": 3]],
        ])
        #expect(replaced[0]?["_soupEntryId"] == 1)
        #expect(replaced[1]?["_soupEntryId"] == 2)
        let all = try exec.result(["op": "retrieveSoupEntries", "soupName": "s", "entryIds": [1, 2]])
        #expect(all.arrayValue?.map(userFields) == [["ext": "k1", "v": 2], ["ext": "k2", "v": 3]])
        #expect(try exec.result(["op": "countQuery", "soupName": "s", "querySpec": ["queryType": "all"]]) == 2)
    }

    @Test func idsAreNeverReusedAfterDeletesClearsAndReopening() throws {
        let store = TemporaryStore()
        var exec = try store.exec()
        try register(exec)
        try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": [["k": "1"], ["k": "2"], ["k": "3"]]])
        try exec.result(["op": "removeFromSoup", "soupName": "s", "entryIds": [3]])
        #expect(try exec.nextEntryId(in: "s") == 4)
        try exec.result(["op": "clearSoup", "soupName": "s"])
        #expect(try exec.nextEntryId(in: "s") == 5)
        #expect(try exec.finish().status == 0)

        exec = try store.exec()
        #expect(try exec.result(["op": "retrieveSoupEntries", "soupName": "s", "entryIds": [1, 2, 3, 4, 5]]).arrayValue?.count == 1)
        #expect(try exec.nextEntryId(in: "s") == 6)
        try exec.result(["op": "removeFromSoup", "soupName": "s", "entryIds": [6]])
        #expect(try exec.finish().status == 0)
        exec = try store.exec()
        #expect(try exec.nextEntryId(in: "s") == 7)
    }

    @Test func removeFromSoupByQueryRemovesTheFirstPage() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        try register(exec)
        try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": [["k": "1"], ["k": "2"], ["k": "3"], ["k": "4"], ["k": "5"]]])
        #expect(try exec.result(["op": "removeFromSoup", "soupName": "s", "querySpec": ["queryType": "all", "pageSize": 2]]) == nil)
        let left = try exec.result(["op": "retrieveSoupEntries", "soupName": "s", "entryIds": [1, 2, 3, 4, 5]])
        #expect(left.arrayValue?.compactMap { $0["_soupEntryId"] } == [3, 4, 5])
    }

    @Test func documentsOverTheBlobThresholdRoundTrip() throws {
        let store = TemporaryStore()
        let exec = try store.exec(["--blob-threshold-bytes", "64"])
        try register(exec)
        let text = String(repeating: "blob ", count: 100)
        let stored = try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": [["k": "big", "text": .string(text)], ["k": "small"]]])
        #expect(try exec.result(["op": "retrieveSoupEntries", "soupName": "s", "entryIds": [1, 2]]) == stored)
        #expect(try exec.finish().status == 0)
        let reopened = try store.exec()
        #expect(try reopened.result(["op": "retrieveSoupEntries", "soupName": "s", "entryIds": [1, 2]]) == stored)
    }

    @Test func documentAtTheSizeLimitIsAccepted() throws {
        let store = TemporaryStore()
        let exec = try store.exec(["--max-document-bytes", "256"])
        try register(exec)
        // The limit is on the document as sent ({"k":"xx..."}: 8 bytes around the string);
        // the system fields the store adds do not count.
        let padding = String(repeating: "x", count: 256 - 8)
        let atLimit = try exec.send(["op": "upsertSoupEntries", "soupName": "s", "entries": [["k": .string(padding)]]])
        #expect(atLimit["ok"] == true, "\(atLimit.jsonText)")
        let stored = try #require(atLimit["result"]?[0])
        #expect(JSONWriter.write(stored).count > 256, "stored with its system fields, over the limit")
        // Replacing it with the same size, its system fields given, is accepted too.
        let replaced = try exec.send(["op": "upsertSoupEntries", "soupName": "s", "entries": [stored]])
        #expect(replaced["ok"] == true, "\(replaced.jsonText)")
        let pastLimit = try exec.send(["op": "upsertSoupEntries", "soupName": "s", "entries": [["k": .string(padding + "x")]]])
        #expect(pastLimit["error"]?["code"] == "limit_exceeded")
    }
}
