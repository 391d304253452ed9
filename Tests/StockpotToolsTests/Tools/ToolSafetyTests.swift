// The tools do no harm: demo replaces only a demo store (or anything with --force), dump's
// temporary file is never reached through a planted link, and a restore removes the staging
// folders killed restores left, never one whose process still runs.

import Foundation
import Testing
@testable import StockpotTools

@Suite struct ToolSafetyTests {
    @Test func demoRefusesAStoreThatIsNotADemoStore() throws {
        let scratch = try ScratchDirectory()
        let store = scratch.file("store")
        let input = scratch.write("lines.jsonl", "{\"Code\":\"A\"}\n")
        #expect(try ToolRun.stockpot(["import", store, "--soup", "items", "--index", "Code:string", input]).status == 0)
        let refused = try ToolRun.stockpot(["demo", store, "--entries", "20"])
        #expect(refused.status == 1, "\(refused.errors)")
        #expect(refused.errors.contains("not a demo store"), "\(refused.errors)")
        #expect(refused.errors.contains("--force"))
        #expect(try ToolRun.stockpot(["stats", store]).status == 0, "the store was touched")
        // A demo store is replaced; --force replaces anything.
        let demo = scratch.file("demo")
        #expect(try ToolRun.stockpot(["demo", demo, "--entries", "20"]).status == 0)
        #expect(try ToolRun.stockpot(["demo", demo, "--entries", "30"]).status == 0)
        let forced = try ToolRun.stockpot(["demo", store, "--entries", "20", "--force"])
        #expect(forced.status == 0, "\(forced.errors)")
        // A directory of other files is refused as before.
        let other = scratch.file("other")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
        _ = scratch.write("other/notes.txt", "keep me")
        #expect(try ToolRun.stockpot(["demo", other, "--entries", "20"]).status == 1)
        #expect(FileManager.default.fileExists(atPath: other + "/notes.txt"))
    }

    @Test func dumpNeverWritesThroughALinkAtItsTemporaryFile() throws {
        let scratch = try ScratchDirectory()
        let store = scratch.file("store")
        let input = scratch.write("lines.jsonl", "{\"Code\":\"A\"}\n")
        #expect(try ToolRun.stockpot(["import", store, "--soup", "items", "--index", "Code:string", input]).status == 0)
        let victim = scratch.write("victim.txt", "precious")
        // Links planted at the temporary names a file output of this process could use
        // (FILE.tmp, FILE.<pid>.tmp): the output is refused, the link's target untouched.
        for name in ["out.dump.tmp", "out.dump.\(getpid()).tmp"] {
            #expect(symlink(victim, scratch.file(name)) == 0)
        }
        do {
            let output = try ByteOutput.file(scratch.file("out.dump"))
            try output.append(Array("overwritten".utf8))
            try output.finish()
            Issue.record("a file output was created through a planted link")
        } catch {}
        #expect(String(decoding: scratch.read("victim.txt"), as: UTF8.self) == "precious")
        // A dump to a file still works, and leaves no temporary file.
        #expect(try ToolRun.stockpot(["dump", store, "--output", scratch.file("d.dump")]).status == 0)
        #expect(!scratch.names().contains { $0.hasPrefix("d.dump.") })
    }

    @Test func restoreRemovesStagingThatKilledRestoresLeft() throws {
        let scratch = try ScratchDirectory()
        let store = scratch.file("store")
        let input = scratch.write("lines.jsonl", "{\"Code\":\"A\"}\n")
        #expect(try ToolRun.stockpot(["import", store, "--soup", "items", "--index", "Code:string", input]).status == 0)
        #expect(try ToolRun.stockpot(["dump", store, "--output", scratch.file("d.dump")]).status == 0)
        // A pid no process has (beyond pid_max), and the test's own (alive).
        let deadPID = 2_000_000_000
        for name in [
            "copy.restore-\(deadPID).tmp", "copy.replaced-\(deadPID).tmp", "copy.restore-\(getpid()).tmp", "copy.restore-x.tmp",
            "other.restore-\(deadPID).tmp",
        ] {
            try FileManager.default.createDirectory(atPath: scratch.file(name), withIntermediateDirectories: false)
        }
        #expect(try ToolRun.stockpot(["restore", scratch.file("copy"), scratch.file("d.dump")]).status == 0)
        let left = Set(scratch.names())
        #expect(!left.contains("copy.restore-\(deadPID).tmp"))
        #expect(!left.contains("copy.replaced-\(deadPID).tmp"))
        #expect(left.contains("copy.restore-\(getpid()).tmp"), "a running process's staging was removed")
        #expect(left.contains("copy.restore-x.tmp"))
        #expect(left.contains("other.restore-\(deadPID).tmp"), "another target's staging was removed")
    }
}
