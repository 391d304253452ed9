// Store operations and the store's life end to end: stats and compact shapes, reopening, and
// a second `stockpot exec` on a held store failing with store_locked and a non-zero exit.

import Foundation
import StockpotJSON
import Testing

@Suite struct StoreOperationTests {
    private let statsKeys = ["soups", "entries", "dataBytes", "liveBytes", "blobBytes", "segments"]

    private func populate(_ exec: ExecProcess) throws {
        for soup in ["a", "b"] {
            try exec.result(["op": "registerSoup", "soupName": .string(soup), "indexSpecs": [["path": "k", "type": "string"]]])
        }
        try exec.result(["op": "upsertSoupEntries", "soupName": "a", "entries": [["k": "1"], ["k": "2"]]])
        try exec.result(["op": "upsertSoupEntries", "soupName": "b", "entries": [["k": "3"]]])
        try exec.result(["op": "removeFromSoup", "soupName": "a", "entryIds": [1]])
    }

    private func checkShape(_ stats: JSONValue) {
        for key in statsKeys {
            let value = stats[key]?.integerValue
            #expect(value != nil && value! >= 0, "\(key) in \(stats.jsonText)")
        }
        #expect(stats["soups"] == 2)
        #expect(stats["entries"] == 2)
    }

    @Test func statsAndCompactReportTheSameShape() throws {
        let store = TemporaryStore()
        let exec = try store.exec()
        try populate(exec)
        let stats = try exec.result(["op": "stats"])
        checkShape(stats)
        let compacted = try exec.result(["op": "compact"])
        checkShape(compacted)
        let liveAfter = try #require(compacted["liveBytes"]?.integerValue)
        let dataAfter = try #require(compacted["dataBytes"]?.integerValue)
        #expect(liveAfter <= dataAfter)
        #expect(try exec.result(["op": "retrieveSoupEntries", "soupName": "a", "entryIds": [1, 2]]).arrayValue?.count == 1)
    }

    @Test func reopeningKeepsSoupsSpecsAndEntries() throws {
        let store = TemporaryStore()
        var exec = try store.exec()
        try populate(exec)
        let before = try exec.snapshot()
        #expect(try exec.finish().status == 0)
        exec = try store.exec()
        #expect(try exec.snapshot() == before)
        #expect(try exec.nextEntryId(in: "a") == 3)
    }

    @Test(arguments: [["--durability", "full"], ["--durability", "interval", "--sync-interval-ms", "5"], ["--durability", "none"]])
    func everyDurabilityKeepsWritesAcrossACleanClose(_ options: [String]) throws {
        let store = TemporaryStore()
        var exec = try store.exec(options)
        try populate(exec)
        let before = try exec.snapshot()
        let finished = try exec.finish()
        #expect(finished.status == 0, "stderr: \(finished.errors)")
        exec = try store.exec()
        #expect(try exec.snapshot() == before)
    }

    @Test func storeThatCannotBeOpenedExitsNonZero() throws {
        let store = TemporaryStore()
        try Data("not a store".utf8).write(to: URL(fileURLWithPath: store.path))
        let exec = try store.exec()
        let refused = try exec.finish()
        #expect(refused.status != 0)
        #expect(refused.output.isEmpty)
        #expect(refused.errors.hasPrefix("Error: cannot open the store at \(store.path)"), "stderr: \(refused.errors)")
    }

    @Test func secondExecOnAHeldStoreFailsWithStoreLocked() throws {
        let store = TemporaryStore()
        let holder = try store.exec()
        try holder.result(["op": "registerSoup", "soupName": "s", "indexSpecs": [["path": "k", "type": "string"]]])

        let second = try store.exec()
        let refused = try second.finish()
        #expect(refused.status != 0)
        #expect(refused.output.isEmpty)
        #expect(refused.errors.contains("store_locked"), "stderr: \(refused.errors)")
        #expect(refused.errors.hasPrefix("Error: "))

        // The holder is unaffected, and once it is gone the store opens again.
        #expect(try holder.result(["op": "soupExists", "soupName": "s"]) == true)
        #expect(try holder.finish().status == 0)
        let third = try store.exec()
        #expect(try third.result(["op": "soupExists", "soupName": "s"]) == true)
    }
}
