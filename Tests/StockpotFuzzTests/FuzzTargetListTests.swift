// The fuzz target list agrees with the corpus folders and with `make fuzz`'s FUZZ_TARGETS, so
// that no target goes unreplayed or unfuzzed.

import Foundation
import StockpotFuzzTargets
import Testing

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
