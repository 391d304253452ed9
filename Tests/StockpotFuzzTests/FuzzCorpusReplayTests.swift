// Replays every committed fuzz corpus file (Tests/FuzzCorpus/TARGET/) once through its
// target's function, as libFuzzer would run it: no trap, no broken property.

import Foundation
import StockpotFuzzTargets
import Testing

@Suite("Fuzz corpus replay")
struct FuzzCorpusReplayTests {
    /// Tests/FuzzCorpus, found from this file's path.
    static let corpusRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("FuzzCorpus").path

    @Test("every corpus input of the target runs clean", arguments: FuzzTarget.allCases)
    func corpusReplaysClean(_ target: FuzzTarget) throws {
        let folder = Self.corpusRoot + "/" + target.name
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names.count >= 3, "the \(target.name) corpus has \(names.count) inputs")
        for name in names {
            let data = try #require(FileManager.default.contents(atPath: folder + "/" + name))
            #expect(throws: Never.self, "\(target.name)/\(name)") { try target.run([UInt8](data)) }
        }
        #expect(throws: Never.self) { try target.finish() }
    }
}

@Suite("Fuzz target list")
struct FuzzTargetListTests {
    @Test func everyCorpusFolderIsATargetAndEveryTargetHasOne() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: FuzzCorpusReplayTests.corpusRoot)
        #expect(Set(folders) == Set(FuzzTarget.allCases.map(\.name)))
    }

    /// `make fuzz` runs FUZZ_TARGETS: it must name every target, so that none is left out.
    @Test func makeFuzzRunsEveryTarget() throws {
        let makefile = URL(fileURLWithPath: FuzzCorpusReplayTests.corpusRoot)
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Makefile")
        let text = try String(contentsOf: makefile, encoding: .utf8)
        let start = try #require(text.range(of: "FUZZ_TARGETS ?="))
        var names: [String] = []
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            names += line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\\" }).map(String.init)
            if !line.hasSuffix("\\") { break }
        }
        #expect(names == FuzzTarget.allCases.map(\.name))
    }
}
