// A child process alters a soup's index specs back and forth and is killed with SIGKILL at
// random moments; after each kill the store must open with the last acknowledged spec set
// or the one being written, and every index (ordered and full-text) must agree with every
// entry. STOCKPOT_ALTER_KILLS sets the number of kills (25 by default).

import Foundation
import Testing
@testable import Stockpot
import StockpotTestSupport

@Suite(.serialized) struct AlterSoupCrashTests {
    @Test func interruptedAlterSoupIsFinishedOrRolledBack() throws {
        let kills = TestEnvironment.integer("STOCKPOT_ALTER_KILLS", default: 25)
        let seed = TestEnvironment.seed("STOCKPOT_CRASH_SEED", default: 20_261_130)
        #expect(FileManager.default.isExecutableFile(atPath: CrashWriterChild.url.path), "missing \(CrashWriterChild.url.path)")
        try withTemporaryDirectory { directory in
            var random = SeededRandom(seed: seed)
            var alterations = 0
            for round in 0..<kills {
                let process = Process()
                process.executableURL = CrashWriterChild.url
                process.arguments = [directory]
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                // The kill clock starts once the soup exists: a slow start on a loaded machine
                // must not be killed before the first open has registered it.
                var printed = CrashWriterChild.readUntilReady(output.fileHandleForReading)
                // Under a sanitizer an alterSoup takes several times as long: the window
                // stretches with it, or no kill would come after a finished one.
                let window = Double((40 + random.below(260)) * TestEnvironment.sanitizerSlowdown)
                Thread.sleep(forTimeInterval: window / 1000)
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                printed += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                #expect(!printed.contains("error"), "seed \(seed), round \(round): the writer failed: \(printed)")
                let lastAcknowledged = printed.split(separator: "\n").last { $0.hasPrefix("altered") }
                    .map { String($0.split(separator: " ")[2]) }
                alterations += printed.split(separator: "\n").count { $0.hasPrefix("altered") }

                let store = try Store.open(directory: directory)
                defer { try? store.close() }
                let specs = try store.indexSpecs(of: "s")
                let names = specs.map(\.path).joined(separator: ",")
                let known = ["k,n": "A", "n,t,k,id": "B", "t,id": "C"]
                let current = try #require(known[names], "seed \(seed), round \(round): unexpected specs \(names)")
                if let lastAcknowledged {
                    // Either the acknowledged set, or the next one, whose batch may have become
                    // durable just before the kill.
                    let next = ["A": "B", "B": "C", "C": "A"][lastAcknowledged]!
                    #expect(
                        current == lastAcknowledged || current == next,
                        "seed \(seed), round \(round): acknowledged \(lastAcknowledged), found \(current)")
                }
                try expectIndexesAgreeWithEntries(store, specs, "seed \(seed), round \(round)")
            }
            #expect(alterations > 0, "seed \(seed): the writer never finished an alterSoup")
        }
    }

    /// Every spec's ordered index lists every entry, in the order the entries' values give.
    func expectIndexesAgreeWithEntries(_ store: Store, _ specs: [IndexSpec], _ context: String) throws {
        let view = store.view()
        let count = try view.count(of: "s")
        let all = try view.query(.all(pageSize: max(count, 1)), in: "s").rows
        #expect(all.count == count, "\(context): \(all.count) entries listed, count says \(count)")
        for spec in specs {
            let expected = all.map { document in
                (
                    id: document["_soupEntryId"]?.integerValue ?? -1,
                    value: IndexValue(document: document, path: spec.jsonPath, type: spec.type)
                )
            }.sorted { a, b in
                let order = a.value.compare(b.value)
                return order != 0 ? order < 0 : a.id < b.id
            }.map(\.id)
            let actual = try view.query(.all(orderPath: spec.path, pageSize: max(count, 1)), in: "s").rows
                .map { $0["_soupEntryId"]?.integerValue ?? -1 }
            #expect(actual == expected, "\(context): the index on \(spec.path) disagrees with the entries")
        }
        guard let fullText = view.state.soup(named: "s")?.fullTextIndex else { return }
        for token in (0..<13).map({ "word\($0)" }) + ["other3"] {
            let expected = all.filter { $0["t"]?.stringValue?.split(separator: " ").contains(Substring(token)) == true }
                .map { $0["_soupEntryId"]?.integerValue ?? -1 }.sorted()
            #expect(
                fullText.index.entries(containing: token, column: 0) == expected,
                "\(context): the full-text index disagrees with the entries on \(token)")
        }
    }
}
