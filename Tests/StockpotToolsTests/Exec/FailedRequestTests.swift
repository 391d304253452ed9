// Every error code this layer can produce, end to end through `stockpot exec`: the code, a
// message, the echoed id, and a store left exactly as it was (specs, entries, next entry id).

import StockpotJSON
import Testing

@Suite struct FailedRequestTests {
    @Test(arguments: ErrorCase.all)
    func failsWithItsCodeAndChangesNothing(_ errorCase: ErrorCase) throws {
        let store = TemporaryStore()
        let exec = try store.exec(ErrorFixture.options)
        try ErrorFixture.populate(exec)
        let before = try exec.snapshot()

        let response = try exec.send(line: errorCase.line)
        #expect(try ExecProcess.errorCode(of: response, request: errorCase.line) == errorCase.code)
        // The id is echoed when the line was an object with one; the fixture lines have none.
        #expect(response["id"] == .null)

        let after = try exec.snapshot()
        #expect(after == before, "the store changed: \(after.jsonText)")
        #expect(try exec.nextEntryId(in: "people") == ErrorFixture.nextEntryId)
        let finished = try exec.finish()
        #expect(finished.status == 0, "stderr: \(finished.errors)")
    }

    @Test func failuresEchoTheRequestId() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        let cases: [(String, JSONValue)] = [
            (#"{"id":"a","op":"nope"}"#, "a"),
            (#"{"id":7}"#, 7),
            (#"{"op":3,"id":{"k":[1,2.5]}}"#, ["k": [1, 2.5]]),
            (#"{"id":null,"op":"clearSoup","soupName":"x"}"#, nil),
            (#"{"op":"clearSoup","soupName":"x"}"#, nil),
        ]
        for (line, id) in cases {
            let response = try exec.send(line: line)
            #expect(response["ok"] == false, "\(line)")
            #expect(response["id"] == id, "\(line) -> \(response.jsonText)")
        }
    }
}
