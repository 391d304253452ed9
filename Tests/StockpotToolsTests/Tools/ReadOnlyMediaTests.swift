// The commands that only read (`dump`, `query`, `stats`, `verify`) work on a store on
// read-only media, and write nothing to a store they read: they open it read-only and lock
// the directory, which needs no write access (docs/durability.md, "The lock").

import Foundation
import Testing

@Suite struct ReadOnlyMediaTests {
    /// Every file of `directory` with its bytes.
    private func snapshot(_ directory: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            result[name] = FileManager.default.contents(atPath: directory + "/" + name)
        }
        return result
    }

    private func readingRuns(_ store: String) throws -> [(String, ToolRun)] {
        [
            ("dump", try ToolRun.stockpot(["dump", store])),
            ("stats", try ToolRun.stockpot(["stats", store])),
            ("query", try ToolRun.stockpot(["query", store, "select count(*) from {items}"])),
            ("verify", try ToolRun.stockpot(["verify", store])),
        ]
    }

    @Test func readingCommandsChangeNoByteOfTheStore() throws {
        let scratch = try ScratchDirectory()
        let store = scratch.file("store")
        let input = scratch.write("input.jsonl", ToolCorpus.lines(count: 50, bigAt: nil))
        #expect(try ToolRun.stockpot(["import", store, "--soup", "items"] + ToolCorpus.indexOptions + [input]).status == 0)
        // A torn tail, as a crash leaves it: a writable open would cut it.
        let segment = try #require(try FileManager.default.contentsOfDirectory(atPath: store).filter { $0.hasSuffix(".seg") }.max())
        let handle = try #require(FileHandle(forWritingAtPath: store + "/" + segment))
        handle.seekToEndOfFile()
        handle.write(Data([0x24, 0, 0, 0, 1, 1]))
        handle.closeFile()
        let before = try snapshot(store)
        for (name, run) in try readingRuns(store) {
            if name == "verify" {
                // verify reports the unfinished write as a problem; it does not cut it.
                #expect(run.status == 1 && run.outputText.contains("cut short by the end of the file"), "\(run.outputText) \(run.errors)")
            } else {
                #expect(run.status == 0, "\(name): \(run.errors)")
            }
        }
        #expect(try snapshot(store) == before, "a reading command wrote to the store")
    }

    @Test func readingCommandsWorkOnAReadOnlyMount() throws {
        let scratch = try ScratchDirectory()
        let store = scratch.file("store")
        let input = scratch.write("input.jsonl", ToolCorpus.lines(count: 50, bigAt: nil))
        #expect(try ToolRun.stockpot(["import", store, "--soup", "items"] + ToolCorpus.indexOptions + [input]).status == 0)
        let mounted = scratch.file("mounted")
        try FileManager.default.createDirectory(atPath: mounted, withIntermediateDirectories: true)
        // A read-only bind mount needs root (CI and the development machines run as root).
        guard runSystemCommand("/bin/mount", ["--bind", store, mounted]) == 0 else {
            Issue.record("cannot bind-mount (not root?): the read-only media case was not run")
            return
        }
        defer { _ = runSystemCommand("/bin/umount", [mounted]) }
        #expect(runSystemCommand("/bin/mount", ["-o", "remount,bind,ro", mounted]) == 0)
        #expect(!FileManager.default.createFile(atPath: mounted + "/probe", contents: nil), "the mount is read-only")
        for (name, toolRun) in try readingRuns(mounted) {
            #expect(toolRun.status == 0, "\(name) on read-only media: \(toolRun.errors)")
        }
        let write = try ToolRun.stockpot(["import", mounted, "--soup", "items", input])
        #expect(write.status != 0, "a write on read-only media fails")
    }
}
