// Smart SQL end to end through `stockpot exec`: runSmartQuery cursors (rows as arrays of
// values, `{soup:_soup}` as the document, paging and clamping, re-running on move), `args`
// bound to placeholders, and countQuery with a smart spec and no soupName.

import StockpotJSON
import Testing

@Suite struct SmartQueryTests {
    /// A store with soup `s` holding `count` entries `{"k": "<n>", "n": n}`, ids 1...count.
    private func populated(_ count: Int) throws -> (TemporaryStore, ExecProcess) {
        let store = TemporaryStore()
        let exec = try store.exec()
        try exec.result([
            "op": "registerSoup", "soupName": "s",
            "indexSpecs": [["path": "k", "type": "string"], ["path": "n", "type": "integer"]],
        ])
        let entries = (1...count).map { n -> JSONValue in ["k": .string("\(n)"), "n": .integer(Int64(n))] }
        try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": .array(entries)])
        return (store, exec)
    }

    private func smart(_ sql: String, pageSize: Int64 = 10, args: JSONValue? = nil) -> JSONValue {
        var request = JSONObject()
        request["op"] = "runSmartQuery"
        request["querySpec"] = ["queryType": "smart", "smartSql": .string(sql), "pageSize": .integer(pageSize)]
        if let args { request["args"] = args }
        return .object(request)
    }

    @Test func rowsAreArraysOfValuesAndPagesAreClamped() throws {
        let (_, exec) = try populated(7)
        let cursor = try exec.result(smart("SELECT {s:n}, {s:k} || '!' FROM {s} WHERE {s:n} > ? ORDER BY {s:n} DESC", pageSize: 2, args: [2]))
        #expect(cursor["totalEntries"] == 5)
        #expect(cursor["totalPages"] == 3)
        #expect(cursor["currentPageOrderedEntries"] == [[7, "7!"], [6, "6!"]])
        let last = try exec.result(["op": "moveCursorToPageIndex", "cursorId": cursor["cursorId"] ?? nil, "index": 99])
        #expect(last["currentPageIndex"] == 2)
        #expect(last["currentPageOrderedEntries"] == [[3, "3!"]])
        // Moving runs the statement again, with the same arguments, on the store as it is now.
        try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": [["k": "8", "n": 8]]])
        let first = try exec.result(["op": "moveCursorToPageIndex", "cursorId": cursor["cursorId"] ?? nil, "index": 0])
        #expect(first["totalEntries"] == 6)
        #expect(first["currentPageOrderedEntries"] == [[8, "8!"], [7, "7!"]])
    }

    @Test func soupColumnIsTheDocument() throws {
        let (_, exec) = try populated(2)
        let cursor = try exec.result(smart("SELECT {s:_soup}, {s:_soupEntryId} FROM {s} WHERE {s:k} = '2'"))
        let row = try #require(cursor["currentPageOrderedEntries"]?.arrayValue?.first?.arrayValue)
        #expect(row.count == 2)
        #expect(row.first?["n"] == 2)
        #expect(row.first?["_soupEntryId"] == 2)
        #expect(row.last == 2)
    }

    @Test func countQueryTakesASmartSpecWithoutASoup() throws {
        let (_, exec) = try populated(7)
        let count = try exec.result([
            "op": "countQuery", "querySpec": ["queryType": "smart", "smartSql": "SELECT {s:n} FROM {s} WHERE {s:n} BETWEEN ? AND ?"],
            "args": [2, 4],
        ])
        #expect(count == 3)
        let grouped = try exec.result([
            "op": "countQuery", "querySpec": ["queryType": "smart", "smartSql": "SELECT count(*) FROM {s}"],
        ])
        #expect(grouped == 1)
    }

    @Test func coalesceAndIfnullStopAtTheFirstValue() throws {
        let (_, exec) = try populated(1)
        // As in SQLite: arguments after the first non-null one are not evaluated, so the
        // overflow of abs() is never reached.
        let cursor = try exec.result(smart("SELECT coalesce(NULL, 1, abs(-9223372036854775808)), ifnull(2, abs(-9223372036854775808))"))
        #expect(cursor["currentPageOrderedEntries"] == [[1, 2]])
        #expect(try exec.errorCode(smart("SELECT abs(-9223372036854775808)")) == "invalid_query")
    }
}
