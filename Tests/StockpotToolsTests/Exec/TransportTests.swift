// The transport of `stockpot exec`: one compact response line per non-blank request line, in
// order, ids echoed, limits on depth and line length at and one past the limit, exit 0 at EOF.

import StockpotJSON
import Testing

@Suite struct TransportTests {
    @Test func blankLinesGetNoResponse() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        try exec.write(Array("\n   \n\t\r\n\n".utf8))
        let response = try exec.send(line: #"{"id":1,"op":"getAllSoupNames"}"#)
        #expect(response == ["id": 1, "ok": true, "result": []])
        let finished = try exec.finish()
        #expect(finished.status == 0)
        #expect(finished.output.isEmpty, "unexpected output: \(String(decoding: finished.output, as: UTF8.self))")
    }

    @Test func idsAreEchoedUnchanged() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        let ids: [JSONValue] = [
            "req-1", "", 42, -7, 9_223_372_036_854_775_807, 2.5, 1e300, true, ["a": [1, "b"], "c": nil], [3, 2, 1],
        ]
        for id in ids {
            let response = try exec.result(["id": id, "op": "soupExists", "soupName": "s"])
            #expect(response == false)
            let raw = try exec.send(["id": id, "op": "soupExists", "soupName": "s"])
            #expect(raw["id"] == id, "sent \(id.jsonText), got \(raw.jsonText)")
        }
        // Absent and null ids come back as null.
        #expect(try exec.send(line: #"{"op":"soupExists","soupName":"s"}"#) == ["id": nil, "ok": true, "result": false])
        #expect(try exec.send(line: #"{"op":"soupExists","soupName":"s","id":null}"#)["id"] == .null)
    }

    @Test func responsesAreCompactAndInRequestOrder() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        // Several requests written at once are answered one line each, in order.
        try exec.write(Array((1...5).map { #"{ "id" : \#($0) , "op" : "getAllSoupNames" }"# + "\n" }.joined().utf8))
        for expected in 1...5 {
            let line = try exec.readLine()
            let response = try JSONReader.parse(line)
            #expect(response["id"] == .integer(Int64(expected)))
            #expect(line == JSONWriter.write(response), "not compact: \(String(decoding: line, as: UTF8.self))")
        }
        let failure = try exec.send(line: "nonsense")
        #expect(try ExecProcess.errorCode(of: failure, request: "nonsense") == "bad_request")
        #expect(failure.objectValue?.keys == ["id", "ok", "error"])
        #expect(failure["error"]?.objectValue?.keys == ["code", "message"])
    }

    @Test func depthAtTheLimitIsAccepted() throws {
        let store = TemporaryStore()
        let exec = try store.exec(["--max-depth", "8"])
        try exec.result(["op": "registerSoup", "soupName": "s", "indexSpecs": [["path": "a", "type": "json1"]]])
        // Depth 8: the request, entries, the entry, then a's five nested containers.
        let stored = try exec.result(line: #"{"op":"upsertSoupEntries","soupName":"s","entries":[{"a":[[[[{}]]]]}]}"#)
        #expect(stored[0]?["a"] == [[[[[:]]]]])
        let deeper = try exec.send(line: #"{"id":3,"op":"upsertSoupEntries","soupName":"s","entries":[{"a":[[[[[{}]]]]]}]}"#)
        #expect(deeper["error"]?["code"] == "bad_request")
        #expect(try exec.nextEntryId(in: "s") == 2)
    }

    @Test func lineAtTheLimitIsAcceptedAndOnePastIsSkipped() throws {
        let store = TemporaryStore()
        let exec = try store.exec(["--max-request-bytes", "4096"])
        #expect(try exec.send(line: ErrorCase.paddedLine(bytes: 4096))["ok"] == true)
        let past = try exec.send(line: ErrorCase.paddedLine(bytes: 4097))
        #expect(past["error"]?["code"] == "bad_request")
        #expect(past["id"] == .null)
        // A line far past the limit is skipped whole: the next line is answered as usual.
        try exec.write(Array(repeating: UInt8(ascii: "x"), count: 3 << 20) + [UInt8(ascii: "\n")])
        let skipped = try JSONReader.parse(try exec.readLine())
        #expect(skipped["error"]?["code"] == "bad_request")
        #expect(try exec.send(line: #"{"id":"after","op":"getAllSoupNames"}"#) == ["id": "after", "ok": true, "result": []])
    }

    @Test func lastLineWithoutNewlineIsAnswered() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        try exec.write(Array(#"{"id":9,"op":"soupExists","soupName":"s"}"#.utf8))
        let finished = try exec.finish()
        #expect(finished.status == 0)
        #expect(try JSONReader.parse(finished.output.filter { $0 != UInt8(ascii: "\n") }) == ["id": 9, "ok": true, "result": false])
    }

    @Test func exitsZeroAtEndOfInputAfterFailures() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        #expect(try exec.send(line: "{")["ok"] == false)
        #expect(try exec.errorCode(["op": "clearSoup", "soupName": "none"]) == "soup_not_found")
        let finished = try exec.finish()
        #expect(finished.status == 0)
        #expect(finished.errors.isEmpty, "stderr: \(finished.errors)")
    }
}
