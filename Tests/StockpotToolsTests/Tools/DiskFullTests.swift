// A full disk, for real: `stockpot exec` on a store in a small tmpfs is sent upserts until
// the space runs out. Every request gets a clean answer (ok, or an error code), the process
// exits without a crash, and every upsert that was acknowledged is in the store afterwards.

import Foundation
import StockpotJSON
import Testing

@Suite struct DiskFullTests {
    @Test func everyAcknowledgedUpsertSurvivesAFullDisk() throws {
        let scratch = try ScratchDirectory()
        let mounted = scratch.file("small")
        try FileManager.default.createDirectory(atPath: mounted, withIntermediateDirectories: true)
        // A 3 MiB tmpfs needs root (CI and the development machines run as root).
        guard runSystemCommand("/bin/mount", ["-t", "tmpfs", "-o", "size=3m", "tmpfs", mounted]) == 0 else {
            Issue.record("cannot mount a tmpfs (not root?): the full-disk case was not run")
            return
        }
        defer { _ = runSystemCommand("/bin/umount", [mounted]) }
        let store = mounted + "/store"
        let exec = try ExecProcess(directory: store)
        try exec.result(["op": "registerSoup", "soupName": "s", "indexSpecs": [["path": "k", "type": "string"]]])
        // Notes that do not compress, so that the log really grows by about 20 KB a batch.
        var state: UInt64 = 0x5EED
        func note() -> String {
            (0..<250).map { _ in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return String(state >> 16, radix: 16)
            }.joined()
        }
        var acknowledged: [String] = []
        var failures: [String] = []
        for batch in 0..<300 {
            let keys = (0..<10).map { "b\(batch)-\($0)" }
            let entries: [JSONValue] = keys.map { ["k": .string($0), "note": .string(note())] }
            let response = try exec.send(["op": "upsertSoupEntries", "soupName": "s", "entries": .array(entries)])
            if response["error"] != nil {
                failures.append(response["error"]?["code"]?.stringValue ?? "?")
            } else {
                #expect(response["result"]?.arrayValue?.count == 10)
                acknowledged += keys
            }
        }
        let (status, _, errors) = try exec.finish()
        #expect(!failures.isEmpty, "the disk never filled up: \(acknowledged.count) entries written")
        #expect(!acknowledged.isEmpty)
        #expect(Set(failures).isSubset(of: ["io_error"]), "\(Set(failures))")
        #expect(status == 0 || status == 1, "exec ended with \(status): \(errors)")
        // Read the store back from a copy on a disk with room (the open may cut a torn tail).
        let copy = scratch.file("copy")
        #expect(runSystemCommand("/bin/cp", ["-a", store, copy]) == 0)
        let query = try ToolRun.stockpot(["query", copy, "select {s:k} from {s}", "--format", "csv"])
        #expect(query.status == 0, "\(query.errors)")
        let found = Set(query.outputText.split(whereSeparator: \.isNewline).map(String.init))
        let lost = acknowledged.filter { !found.contains($0) }
        #expect(lost.count == 0, "\(lost.count) acknowledged entries lost, first \(lost.prefix(3))")
    }
}
