// Cursors end to end: the protocol's JSON shape, paging (empty result, last partial page),
// page indexes clamped at both ends, re-running on move, closing, and selectPaths rows.

import StockpotJSON
import Testing

@Suite struct CursorTests {
    /// A store with soup `s` holding `count` entries `{"k": "<n>", "n": n}`, ids 1...count.
    private func populated(_ count: Int) throws -> (TemporaryStore, ExecProcess) {
        let store = TemporaryStore()
        let exec = try store.exec()
        try exec.result(["op": "registerSoup", "soupName": "s", "indexSpecs": [["path": "k", "type": "string"]]])
        if count > 0 {
            let entries = (1...count).map { n -> JSONValue in ["k": .string("\(n)"), "n": .integer(Int64(n))] }
            try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": .array(entries)])
        }
        return (store, exec)
    }

    private func ids(_ cursor: JSONValue) -> [Int64] {
        cursor["currentPageOrderedEntries"]?.arrayValue?.compactMap { $0["_soupEntryId"]?.integerValue } ?? []
    }

    private func move(_ exec: ExecProcess, _ cursor: JSONValue, to index: Int64) throws -> JSONValue {
        try exec.result(["op": "moveCursorToPageIndex", "cursorId": cursor["cursorId"] ?? nil, "index": .integer(index)])
    }

    @Test func emptyResultHasTheProtocolShape() throws {
        let (_, exec) = try populated(0)
        let cursor = try exec.result(["op": "querySoup", "soupName": "s", "querySpec": ["queryType": "all"]])
        #expect(
            cursor == [
                "cursorId": 1, "pageSize": 10, "totalEntries": 0, "totalPages": 0, "currentPageIndex": 0,
                "currentPageOrderedEntries": [],
            ])
        #expect(cursor.objectValue?.keys == ["cursorId", "pageSize", "totalEntries", "totalPages", "currentPageIndex", "currentPageOrderedEntries"])
        for index: Int64 in [-1, 0, 1, 5] {
            let moved = try move(exec, cursor, to: index)
            #expect(moved["currentPageIndex"] == 0)
            #expect(moved["currentPageOrderedEntries"] == [])
        }
    }

    @Test func pagesEndWithAPartialPageAndIndexesAreClamped() throws {
        let (_, exec) = try populated(7)
        let cursor = try exec.result(["op": "querySoup", "soupName": "s", "querySpec": ["queryType": "all", "pageSize": 3]])
        #expect(cursor["cursorId"] == 1)
        #expect(cursor["pageSize"] == 3)
        #expect(cursor["totalEntries"] == 7)
        #expect(cursor["totalPages"] == 3)
        #expect(ids(cursor) == [1, 2, 3])
        #expect(ids(try move(exec, cursor, to: 1)) == [4, 5, 6])
        let last = try move(exec, cursor, to: 2)
        #expect(last["currentPageIndex"] == 2)
        #expect(ids(last) == [7])
        for (requested, clamped): (Int64, Int64) in [(3, 2), (99, 2), (.max, 2), (-1, 0), (.min, 0)] {
            let moved = try move(exec, cursor, to: requested)
            #expect(moved["currentPageIndex"] == .integer(clamped), "index \(requested)")
            #expect(ids(moved) == (clamped == 0 ? [1, 2, 3] : [7]), "index \(requested)")
            #expect(moved["cursorId"] == cursor["cursorId"])
        }
    }

    @Test func exactMultipleOfThePageSizeHasNoEmptyLastPage() throws {
        let (_, exec) = try populated(6)
        let cursor = try exec.result(["op": "querySoup", "soupName": "s", "querySpec": ["queryType": "range", "pageSize": 3]])
        #expect(cursor["totalPages"] == 2)
        #expect(ids(try move(exec, cursor, to: 5)) == [4, 5, 6])
    }

    @Test func movingRunsTheQueryAgain() throws {
        let (_, exec) = try populated(2)
        let cursor = try exec.result(["op": "querySoup", "soupName": "s", "querySpec": ["queryType": "all", "pageSize": 2]])
        #expect(cursor["totalPages"] == 1)
        try exec.result(["op": "upsertSoupEntries", "soupName": "s", "entries": [["k": "3"]]])
        let moved = try move(exec, cursor, to: 1)
        #expect(moved["totalEntries"] == 3)
        #expect(moved["totalPages"] == 2)
        #expect(ids(moved) == [3])
    }

    @Test func closedCursorsAreGoneAndIdsKeepGrowing() throws {
        let (_, exec) = try populated(1)
        let first = try exec.result(["op": "querySoup", "soupName": "s", "querySpec": ["queryType": "all"]])
        let second = try exec.result(["op": "querySoup", "soupName": "s", "querySpec": ["queryType": "all"]])
        #expect(first["cursorId"] == 1)
        #expect(second["cursorId"] == 2)
        #expect(try exec.result(["op": "closeCursor", "cursorId": 1]) == nil)
        #expect(try exec.errorCode(["op": "moveCursorToPageIndex", "cursorId": 1, "index": 0]) == "cursor_not_found")
        #expect(try exec.errorCode(["op": "closeCursor", "cursorId": 1]) == "cursor_not_found")
        #expect(ids(try move(exec, second, to: 0)) == [1])
        let third = try exec.result(["op": "querySoup", "soupName": "s", "querySpec": ["queryType": "all"]])
        #expect(third["cursorId"] == 3)
        // A failed query opens no cursor.
        #expect(try exec.errorCode(["op": "querySoup", "soupName": "nope", "querySpec": ["queryType": "all"]]) == "soup_not_found")
        #expect(try exec.result(["op": "querySoup", "soupName": "s", "querySpec": ["queryType": "all"]])["cursorId"] == 4)
    }

    @Test func movingACursorOnARemovedSoupFails() throws {
        let (_, exec) = try populated(3)
        let cursor = try exec.result(["op": "querySoup", "soupName": "s", "querySpec": ["queryType": "all"]])
        try exec.result(["op": "removeSoup", "soupName": "s"])
        #expect(try exec.errorCode(["op": "moveCursorToPageIndex", "cursorId": cursor["cursorId"] ?? nil, "index": 0]) == "soup_not_found")
        #expect(try exec.result(["op": "closeCursor", "cursorId": cursor["cursorId"] ?? nil]) == nil)
    }

    @Test func selectPathsGiveRowsOfValues() throws {
        let (_, exec) = try populated(3)
        let cursor = try exec.result([
            "op": "querySoup", "soupName": "s",
            "querySpec": ["queryType": "all", "selectPaths": ["n", "k"], "pageSize": 2],
        ])
        #expect(cursor["currentPageOrderedEntries"] == [[1, "1"], [2, "2"]])
        #expect(try move(exec, cursor, to: 1)["currentPageOrderedEntries"] == [[3, "3"]])
    }

    @Test func countQueryCountsEveryResult() throws {
        let (_, exec) = try populated(12)
        #expect(try exec.result(["op": "countQuery", "soupName": "s", "querySpec": ["queryType": "all", "pageSize": 5]]) == 12)
    }
}
