// `stockpot import`, `dump` and `restore` end to end: a round trip gives identical dumps and
// the same id high-water marks; bad lines are named and stop the import (or are skipped);
// exit statuses 0, 1, 64, 65 and 74.

import Foundation
import StockpotJSON
import Testing

@Suite struct ImportDumpRestoreTests {
    /// Imports `lines` into soup `items` of a new store at `store`.
    private func importLines(_ lines: String, into store: String, in scratch: ScratchDirectory, extra: [String] = []) throws -> ToolRun {
        let input = scratch.write("input-\(UUID().uuidString).jsonl", lines)
        return try ToolRun.stockpot(["import", store, "--soup", "items"] + ToolCorpus.indexOptions + extra + [input])
    }

    private func statsJSON(_ store: String) throws -> JSONValue {
        let run = try ToolRun.stockpot(["stats", store, "--format", "json"])
        #expect(run.status == 0, "stats: \(run.errors)")
        return try JSONReader.parse(run.output)
    }

    @Test func roundTripGivesIdenticalDumpsAndIdHighWaterMarks() throws {
        let scratch = try ScratchDirectory()
        let source = scratch.file("source")
        let imported = try importLines(ToolCorpus.lines(count: 300, bigAt: 17), into: source, in: scratch)
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.errors.contains("Imported 300 entries"))
        // Deletes (so ids have holes and the high-water mark is above the last id), updates
        // (modification dates after creation), a second soup.
        let exec = try ExecProcess(directory: source)
        try exec.result(["op": "removeFromSoup", "soupName": "items", "entryIds": [3, 4, 300]])
        try exec.result(["op": "upsertSoupEntries", "soupName": "items", "entries": [["_soupEntryId": 5, "Code": "C4", "Name": "changed"]]])
        try exec.result(["op": "registerSoup", "soupName": "empty", "indexSpecs": [["path": "k", "type": "string"]]])
        #expect(try exec.finish().status == 0)

        let first = try ToolRun.stockpot(["dump", source, "--output", scratch.file("first.dump")])
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output.isEmpty)
        let copy = scratch.file("copy")
        let restored = try ToolRun.stockpot(["restore", copy, scratch.file("first.dump")])
        #expect(restored.status == 0, "\(restored.errors)")
        #expect(restored.errors.contains("Restored 2 soups, 297 entries"))
        let second = try ToolRun.stockpot(["dump", copy])
        #expect(second.status == 0)
        let dump = scratch.read("first.dump")
        #expect(second.output == dump, "the dump of the restored store differs")
        #expect(dump.count > 1_200_000, "the large value is in the dump")

        // New ids continue where they would have in the source.
        for store in [source, copy] {
            let exec = try ExecProcess(directory: store)
            #expect(try exec.nextEntryId(in: "items") == 301)
            #expect(try exec.nextEntryId(in: "empty") == 1)
            _ = try exec.finish()
        }
    }

    @Test func badLineStopsTheImportAndWritesNothingOfItsBatch() throws {
        let scratch = try ScratchDirectory()
        var lines = ToolCorpus.lines(count: 10).split(separator: "\n").map(String.init)
        lines[6] = #"{"Code":"bad", "Size": 12,]"#
        let store = scratch.file("store")
        // The store exists first (a failed import removes a store it created itself).
        #expect(try importLines("", into: store, in: scratch).status == 0)
        let run = try importLines(lines.joined(separator: "\n") + "\n", into: store, in: scratch)
        #expect(run.status == 65)
        #expect(run.errors.contains("line 7, column 27"), "\(run.errors)")
        #expect(try statsJSON(store)["entries"] == 0)
    }

    @Test func skipBadSkipsAndCountsBadLines() throws {
        let scratch = try ScratchDirectory()
        var lines = ToolCorpus.lines(count: 10).split(separator: "\n").map(String.init)
        lines[2] = "not json"
        lines[8] = "[1, 2]"
        lines[5] = #"{"Code":"C0"}"#  // a unique index refuses it
        let store = scratch.file("store")
        let run = try importLines(lines.joined(separator: "\r\n") + "\r\n", into: store, in: scratch, extra: ["--skip-bad"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.contains("3 bad lines skipped"), "\(run.errors)")
        #expect(run.errors.contains("line 3, column 2"))
        #expect(run.errors.contains("line 6: unique_violation"))
        #expect(run.errors.contains("line 9, column 1: the line is not a JSON object"))
        #expect(try statsJSON(store)["entries"] == 7)
    }

    @Test func importFromStandardInputUpdatesByExternalId() throws {
        let scratch = try ScratchDirectory()
        let store = scratch.file("store")
        #expect(try importLines(ToolCorpus.lines(count: 5), into: store, in: scratch).status == 0)
        let update = scratch.write("update.jsonl", #"{"Code":"C1","Name":"renamed"}"# + "\n" + #"{"Code":"C9","Name":"new"}"# + "\n")
        let run = try ToolRun.stockpot(["import", store, "--soup", "items", "--external-id", "Code"], inputFile: update)
        #expect(run.status == 0, "\(run.errors)")
        #expect(try statsJSON(store)["entries"] == 6)
    }

    @Test func restoreRefusesAStoreWithSoupsUnlessReplacing() throws {
        let scratch = try ScratchDirectory()
        let store = scratch.file("store")
        #expect(try importLines(ToolCorpus.lines(count: 5), into: store, in: scratch).status == 0)
        #expect(try ToolRun.stockpot(["dump", store, "--output", scratch.file("d")]).status == 0)
        let other = scratch.file("other")
        #expect(try importLines(ToolCorpus.lines(count: 2, seed: 9), into: other, in: scratch).status == 0)
        let refused = try ToolRun.stockpot(["restore", other, scratch.file("d")])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("not empty"))
        #expect(try statsJSON(other)["entries"] == 2)
        let replaced = try ToolRun.stockpot(["restore", other, scratch.file("d"), "--replace"])
        #expect(replaced.status == 0, "\(replaced.errors)")
        #expect(try ToolRun.stockpot(["dump", other]).output == scratch.read("d"))
        #expect(!scratch.names().contains { $0.hasSuffix(".tmp") }, "\(scratch.names())")
    }

    @Test func exitStatusesForUsageAndIOErrors() throws {
        let scratch = try ScratchDirectory()
        let store = scratch.file("store")
        #expect(try ToolRun.stockpot(["import", store]).status == 64)  // no --soup
        #expect(try ToolRun.stockpot(["import", store, "--soup", "s", "--index", "x:nosuchtype"]).status == 64)
        #expect(try ToolRun.stockpot(["stats", store, "--format", "xml"]).status == 64)
        #expect(try ToolRun.stockpot(["dump"]).status == 64)
        let missingInput = try ToolRun.stockpot(["import", store, "--soup", "s", "--index", "x:string", scratch.file("nope.jsonl")])
        #expect(missingInput.status == 74)
        #expect(try ToolRun.stockpot(["restore", store, scratch.file("nope.dump")]).status == 74)
        #expect(try importLines(ToolCorpus.lines(count: 3), into: store, in: scratch).status == 0)
        #expect(try ToolRun.stockpot(["dump", store, "--output", scratch.file("no/such/dir/d")]).status == 74)
        let plain = scratch.write("plain.jsonl", ToolCorpus.lines(count: 2))
        let noSoup = try ToolRun.stockpot(["import", store, "--soup", "unknown", plain])
        #expect(noSoup.status == 1)
        #expect(noSoup.errors.contains("--index"))
        #expect(try ToolRun.stockpot(["stats", scratch.file("no-store")]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("no-store")), "stats must not create a store")
    }

    @Test(arguments: ["import", "dump", "restore", "stats", "compact", "verify", "salvage", "demo"])
    func everyCommandHasHelp(_ command: String) throws {
        let run = try ToolRun.stockpot([command, "--help"])
        #expect(run.status == 0)
        for section in ["OVERVIEW:", "USAGE:", "OPTIONS:", "EXAMPLES:"] {
            #expect(run.outputText.contains(section), "\(command) --help lacks \(section)")
        }
    }
}
