// The budgets of exec requests end to end: timeoutMs on every operation (resource_limit,
// nothing changed), the entries of one write request, the memory of a Smart SQL statement,
// and the nesting depth capped at what the reader handles (a usage error past the cap, never
// a stack overflow).

import StockpotJSON
import Testing

@Suite struct RequestBudgetTests {
    /// Soups a, b, c of `count` entries each.
    private func registerJoinSoups(_ exec: ExecProcess, count: Int) throws {
        for soup in ["a", "b", "c"] {
            try exec.result(["op": "registerSoup", "soupName": .string(soup), "indexSpecs": [["path": "k", "type": "integer"]]])
            try exec.result([
                "op": "upsertSoupEntries", "soupName": .string(soup),
                "entries": .array((1...count).map { ["k": .integer(Int64($0))] }),
            ])
        }
    }

    @Test func aStatementPastItsTimeoutStopsWithResourceLimit() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        try registerJoinSoups(exec, count: 100)
        // A million joined rows: far more than a millisecond.
        let crossJoin: JSONValue = ["queryType": "smart", "smartSql": "SELECT count(*) FROM {a}, {b}, {c}", "pageSize": 1]
        #expect(try exec.errorCode(["op": "countQuery", "querySpec": crossJoin, "timeoutMs": 1]) == "resource_limit")
        #expect(try exec.errorCode(["op": "runSmartQuery", "querySpec": crossJoin, "timeoutMs": 1]) == "resource_limit")
        // No cursor was opened by the failed runSmartQuery.
        #expect(try exec.errorCode(["op": "moveCursorToPageIndex", "cursorId": 1, "index": 0]) == "cursor_not_found")
        // A generous timeout, and none, let small statements finish.
        let small: JSONValue = ["queryType": "smart", "smartSql": "SELECT count(*) FROM {a}, {b}", "pageSize": 1]
        #expect(try exec.result(["op": "countQuery", "querySpec": small, "timeoutMs": 600_000]) == 1)
        #expect(try exec.result(["op": "countQuery", "querySpec": small]) == 1)
    }

    /// A request past its timeout answers `resource_limit` whatever its operation, and a write
    /// past it changes nothing. Each request here works on 30,000 entries, far more than the
    /// millisecond it is given.
    @Test func everyOperationPastItsTimeoutAnswersResourceLimitAndChangesNothing() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        let count = 30_000
        let specs: JSONValue = [["path": "k", "type": "integer"]]
        try exec.result(["op": "registerSoup", "soupName": "s", "indexSpecs": specs])
        let entries = JSONValue.array((1...count).map { ["k": .integer(Int64($0)), "t": .string("text \($0)")] })
        try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": entries])
        let all: JSONValue = ["queryType": "all", "pageSize": .integer(Int64(count))]
        let specsBefore = try exec.result(["op": "getSoupIndexSpecs", "soupName": "s"])
        func entryCount() throws -> JSONValue {
            try exec.result(["op": "countQuery", "soupName": "s", "querySpec": ["queryType": "all"]])
        }

        let requests: [(String, JSONValue)] = [
            ("upsertSoupEntries", ["soupName": "s", "entries": entries]),
            ("alterSoup", ["soupName": "s", "indexSpecs": [["path": "k", "type": "integer"], ["path": "t", "type": "full_text"]]]),
            ("reIndexSoup", ["soupName": "s", "paths": ["k"]]),
            ("clearSoup", ["soupName": "s"]),
            ("removeSoup", ["soupName": "s"]),
            ("removeFromSoup", ["soupName": "s", "querySpec": all]),
            ("removeFromSoup", ["soupName": "s", "entryIds": .array((1...count).map { .integer(Int64($0)) })]),
            ("retrieveSoupEntries", ["soupName": "s", "entryIds": .array((1...count).map { .integer(Int64($0)) })]),
            ("querySoup", ["soupName": "s", "querySpec": all]),
        ]
        for (op, arguments) in requests {
            var request = arguments.objectValue!
            request["op"] = .string(op)
            request["timeoutMs"] = 1
            #expect(try exec.errorCode(.object(request)) == "resource_limit", "\(op)")
        }
        // Nothing changed: the entries, the index specs, the next id, and no cursor opened.
        #expect(try exec.result(["op": "soupExists", "soupName": "s"]) == true)
        #expect(try entryCount() == .integer(Int64(count)))
        #expect(try exec.result(["op": "getSoupIndexSpecs", "soupName": "s"]) == specsBefore)
        #expect(try exec.errorCode(["op": "moveCursorToPageIndex", "cursorId": 1, "index": 0]) == "cursor_not_found")
        let next = try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": [["k": 0]]])
        #expect(next.arrayValue?.first?["_soupEntryId"] == .integer(Int64(count + 1)))
        // Given time, the same requests succeed.
        let retrieved = try exec.result([
            "op": "retrieveSoupEntries", "soupName": "s", "entryIds": [1, 2_000, 30_000], "timeoutMs": 600_000,
        ])
        #expect(retrieved.arrayValue?.map { $0["k"] } == [1, 2_000, 30_000])
        try exec.result(["op": "clearSoup", "soupName": "s", "timeoutMs": 600_000])
        #expect(try entryCount() == 0)
    }

    @Test(arguments: [JSONValue.integer(0), .integer(-5), .integer(86_400_001), .string("10"), .double(1.5)])
    func aTimeoutOutOfRangeIsABadRequest(_ timeout: JSONValue) throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        #expect(try exec.errorCode(["op": "soupExists", "soupName": "s", "timeoutMs": timeout]) == "bad_request")
    }

    @Test func aWriteRequestHoldsAtMostTheEntryLimit() throws {
        let store = TemporaryStore()
        let exec = try store.exec(["--max-request-entries", "3"])
        try exec.result(["op": "registerSoup", "soupName": "s", "indexSpecs": [["path": "k", "type": "string"]]])
        #expect(try exec.errorCode(["op": "upsertSoupEntries", "soupName": "s", "entries": [[:], [:], [:], [:]]]) == "limit_exceeded")
        #expect(try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": [[:], [:], [:]]]).arrayValue?.count == 3)
        // The refused request wrote nothing: the ids continue from 1.
        #expect(try exec.result(["op": "retrieveSoupEntries", "soupName": "s", "entryIds": [1, 4]]).arrayValue?.count == 1)
    }

    @Test func aStatementPastItsMemoryBudgetStopsWithResourceLimit() throws {
        let store = TemporaryStore()
        let exec = try store.exec(["--max-statement-memory-bytes", "20000"])
        try registerJoinSoups(exec, count: 30)
        let sorted: JSONValue = ["queryType": "smart", "smartSql": "SELECT {a:k}, {b:k} FROM {a}, {b} ORDER BY {b:k} DESC", "pageSize": 5]
        #expect(try exec.errorCode(["op": "runSmartQuery", "querySpec": sorted]) == "resource_limit")
        // With a LIMIT only its rows are held.
        let limited: JSONValue = ["queryType": "smart", "smartSql": "SELECT {a:k}, {b:k} FROM {a}, {b} ORDER BY {b:k} DESC LIMIT 2", "pageSize": 5]
        let page = try exec.result(["op": "runSmartQuery", "querySpec": limited])
        #expect(page["currentPageOrderedEntries"] == [[1, 30], [2, 30]])
    }

    @Test func theDepthOptionIsCappedAtWhatTheReaderHandles() throws {
        let past = try CommandRun.stockpot(["exec", "/nonexistent-store", "--max-depth", "1025"])
        #expect(past.status == 64, "\(past.errors)")
        #expect(past.errors.contains("--max-depth"))
        // At the cap, a request nested deeper is refused cleanly, and the session goes on.
        let store = TemporaryStore()
        let exec = try store.exec(["--max-depth", "1024"])
        let deep = String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000)
        let response = try exec.send(line: #"{"op":"soupExists","soupName":"s","x":"# + deep + "}")
        #expect(response["error"]?["code"] == "bad_request")
        #expect(response["error"]?["message"]?.stringValue?.contains("1024") == true)
        let atCap = String(repeating: "[", count: 1_022) + String(repeating: "]", count: 1_022)
        #expect(try exec.result(line: #"{"op":"soupExists","soupName":"s","x":"# + atCap + "}") == false)
        #expect(try exec.finish().status == 0)
    }
}
