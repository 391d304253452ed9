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
