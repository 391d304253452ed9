// `stockpot import` within its budgets and without leftovers: batches are cut by bytes as well
// as by lines, and a failed import removes the store it created (never one that was there).

import Foundation
import Stockpot
import StockpotJSON
import Testing
@testable import StockpotTools

@Suite struct ImportBudgetTests {
    @Test func batchesAreCutByBytesAsWellAsByLines() throws {
        let scratch = try ScratchDirectory()
        let store = try Store.open(directory: scratch.file("store"))
        try store.registerSoup("items", indexSpecs: [IndexSpec(path: "k", type: .string)])
        // 30 lines of about 20 KB each: far fewer than 1,000 lines, far more than 64 KiB.
        let text = (0..<30).map { #"{"k":"\#($0)","pad":""# + String(repeating: "p", count: 20_000) + "\"}" }.joined(separator: "\n")
        let input = scratch.write("input.jsonl", text)
        let descriptor = open(input, O_RDONLY)
        defer { close(descriptor) }
        var importer = DocumentImporter(store: store, soup: "items")
        importer.batchBytes = 64 << 10
        let summary = try importer.run(reading: descriptor)
        #expect(summary.imported == 30)
        #expect(summary.largestBatchBytes < (64 << 10) + 20_100, "a batch held \(summary.largestBatchBytes) bytes")
        #expect(summary.batches >= 8)
        #expect(try store.view().count(of: "items") == 30)
        try store.close()
    }

    @Test func aFailedImportRemovesTheStoreItCreated() throws {
        let scratch = try ScratchDirectory()
        let input = scratch.write("bad.jsonl", "{\"Code\":\"A\"}\nnot json\n")
        let store = scratch.file("new-store")
        let run = try ToolRun.stockpot(["import", store, "--soup", "items", "--index", "Code:string", input])
        #expect(run.status == 65, "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: store), "the failed import left the store it created")
        // With no --index for a soup that does not exist, nothing is left either.
        let unregistered = try ToolRun.stockpot(["import", store, "--soup", "items", input])
        #expect(unregistered.status != 0)
        #expect(!FileManager.default.fileExists(atPath: store))
        // An empty directory given for the new store stays, empty.
        let empty = scratch.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        let intoEmpty = try ToolRun.stockpot(["import", empty, "--soup", "items", "--index", "Code:string", input])
        #expect(intoEmpty.status == 65)
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty).isEmpty)
    }

    @Test func aFailedImportKeepsAStoreThatWasThere() throws {
        let scratch = try ScratchDirectory()
        let store = scratch.file("store")
        let good = scratch.write("good.jsonl", "{\"Code\":\"A\"}\n")
        #expect(try ToolRun.stockpot(["import", store, "--soup", "items", "--index", "Code:string", good]).status == 0)
        let bad = scratch.write("bad.jsonl", "{\"Code\":\"B\"}\nnot json\n")
        #expect(try ToolRun.stockpot(["import", store, "--soup", "items", bad]).status == 65)
        let exec = try ExecProcess(directory: store)
        #expect(try exec.result(["op": "countQuery", "soupName": "items", "querySpec": ["queryType": "range", "indexPath": "Code"]]) == 1)
        _ = try exec.finish()
    }
}
