// A child process writes entries whose documents carry the sequence their change must get,
// and is killed with SIGKILL at random moments; after each kill the store must open with at
// least the last acknowledged sequence, its feed must list every live entry once at the
// sequence its document expects, in strictly increasing order, and the next write must get a
// sequence above every earlier one. STOCKPOT_FEED_KILLS sets the kills (8 by default). The
// same writer also runs while this process opens the store read-only again and again: each
// open is a whole state (the same checks), and the sequence never goes back between opens.

import Foundation
import Stockpot
import StockpotTestSupport
import Testing

@Suite(.serialized) struct ChangeFeedCrashTests {
    @Test func sequencesSurviveKillsAndNeverGoBack() throws {
        let kills = TestEnvironment.integer("STOCKPOT_FEED_KILLS", default: 8)
        let seed = TestEnvironment.seed("STOCKPOT_CRASH_SEED", default: 20_261_204)
        #expect(FileManager.default.isExecutableFile(atPath: CrashWriterChild.url.path), "missing \(CrashWriterChild.url.path)")
        try withTemporaryDirectory { directory in
            var random = SeededRandom(seed: seed)
            var highest: UInt64 = 0
            var acknowledgedWrites = 0
            for round in 0..<kills {
                let context = "seed \(seed), round \(round)"
                let process = Process()
                process.executableURL = CrashWriterChild.url
                process.arguments = [directory, "feed", String(random.next() % 1_000_000)]
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                var printed = CrashWriterChild.readUntilReady(output.fileHandleForReading)
                Thread.sleep(forTimeInterval: Double(30 + random.below(200)) / 1000)
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                printed += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                #expect(!printed.contains("error"), "\(context): the writer failed: \(printed)")
                let acknowledged = printed.split(separator: "\n").compactMap { line in
                    line.hasPrefix("acked ") ? UInt64(line.dropFirst(6)) : nil
                }
                acknowledgedWrites += acknowledged.count

                let store = try Store.open(directory: directory)
                defer { try? store.close() }
                let last = store.lastSequence
                #expect(last >= acknowledged.last ?? 0, "\(context): last sequence \(last) is below the acknowledged \(acknowledged.last ?? 0)")
                #expect(last >= highest, "\(context): the last sequence went back from \(highest) to \(last)")
                try expectFeedConsistent(store, context)
                // The next write gets a number above everything before it.
                let next = try store.upsert([["v": 1, "expect": .integer(Int64(last) + 1)]], into: "f")
                #expect(store.lastSequence == last + 1, "\(context): the next write's sequence")
                #expect(!next.isEmpty)
                highest = store.lastSequence
            }
            #expect(acknowledgedWrites > 0, "seed \(seed): the writer never finished a write")
        }
    }

    @Test func readOnlyOpensBesideTheWriterSeeWholeStates() throws {
        try withTemporaryDirectory { directory in
            let process = Process()
            process.executableURL = CrashWriterChild.url
            process.arguments = [directory, "feed", "4242"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            defer {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            _ = CrashWriterChild.readUntilReady(output.fileHandleForReading)
            // Drain the writer's acknowledgements so that it never blocks on a full pipe.
            let drain = Thread { _ = output.fileHandleForReading.readDataToEndOfFile() }
            drain.start()
            var highest: UInt64 = 0
            for round in 0..<25 {
                Thread.sleep(forTimeInterval: 0.02)
                let store = try Store.open(directory: directory, mode: .readOnly)
                let last = store.lastSequence
                #expect(last >= highest, "open \(round): the last sequence went back from \(highest) to \(last)")
                highest = last
                try expectFeedConsistent(store, "open \(round) at sequence \(last)")
                #expect(store.view().checkIndexes().flatMap(\.problems) == [], "open \(round)")
                #expect(errorCode { try store.upsert([["v": 1]], into: "f") } == .readOnly)
                try store.close()
            }
            #expect(highest > 0, "the writer committed nothing while the store was opened")
        }
    }

    /// Every live entry once, at the sequence its document expects; sequences strictly
    /// increasing and at most the last sequence.
    func expectFeedConsistent(_ store: Store, _ context: String) throws {
        let view = store.view()
        var position: UInt64 = 0
        var previous: UInt64 = 0
        var upserts = 0
        while true {
            let page = try view.changes(since: position, limit: 500)
            for change in page.changes {
                #expect(change.sequence > previous, "\(context): sequence \(change.sequence) after \(previous)")
                #expect(change.sequence <= view.lastSequence, "\(context): sequence \(change.sequence) past the last")
                previous = change.sequence
                if change.operation == .upsert {
                    upserts += 1
                    guard case .object(let document)? = change.document, case .integer(let expected)? = document["expect"] else {
                        Issue.record("\(context): change \(change.sequence) has no expected sequence")
                        continue
                    }
                    #expect(
                        UInt64(expected) == change.sequence, "\(context): entry \(change.entryID ?? 0) expected \(expected), got \(change.sequence)")
                }
            }
            position = page.lastSequence
            guard page.hasMore else { break }
        }
        let count = try view.count(of: "f")
        #expect(upserts == count, "\(context): the feed lists \(upserts) entries, the soup has \(count)")
    }
}
