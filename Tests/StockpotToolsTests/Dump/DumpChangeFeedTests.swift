// Dump and restore keep the change feed (docs/changes.md, docs/format/dump.md): after random
// writes, deletes, clears, soup removals and a purge, a store restored from its dump has the
// same last sequence and purge horizon, and `changes(since:)` from every sequence gives the
// same changes as the original (or `changes_expired` where the original does), so a
// consumer's position stays valid. A salvage of the sound store keeps them too.

import Foundation
import Stockpot
import StockpotJSON
import StockpotTestSupport
import Testing

@Suite struct DumpChangeFeedTests {
    @Test func restoreAndSalvageKeepTheFeed() throws {
        let scratch = try ScratchDirectory()
        let original = scratch.file("original")
        let seed = TestEnvironment.seed("STOCKPOT_FEED_SEED", default: 20_261_204)
        var random = SeededRandom(seed: seed)
        do {
            let store = try Store.open(directory: original)
            defer { try? store.close() }
            let specs = [IndexSpec(path: "key", type: .string, unique: true, default: .newID), IndexSpec(path: "n", type: .integer)]
            for soup in ["a", "b", "c"] { try store.registerSoup(soup, indexSpecs: specs) }
            for step in 0..<120 {
                let soup = random.pick(["a", "b", "c"])
                switch random.below(10) {
                case 0..<5: _ = try store.upsert((0..<(1 + random.below(4))).map { _ in ["n": .integer(Int64(step))] }, into: soup)
                case 5..<7: try store.delete([Int64(1 + random.below(20))], from: soup)
                case 7: try store.clearSoup(soup)
                case 8 where step > 60: try store.purgeTombstones(through: store.lastSequence / 3)
                default: _ = try store.upsert([["n": .integer(Int64(step))]], into: "b")
                }
            }
            try store.removeSoup("c")
        }
        let dump = scratch.file("store.dump")
        #expect(try ToolRun.stockpot(["dump", original, "--output", dump]).status == 0)
        let restored = scratch.file("restored")
        let restore = try ToolRun.stockpot(["restore", restored, dump])
        #expect(restore.status == 0, "\(restore.errors)")
        let salvaged = scratch.file("salvaged")
        let salvage = try ToolRun.stockpot(["salvage", original, salvaged])
        #expect(salvage.status == 0, "\(salvage.outputText)")

        let before = try Store.open(directory: original)
        defer { try? before.close() }
        for copy in [restored, salvaged] {
            let after = try Store.open(directory: copy)
            defer { try? after.close() }
            let (a, b) = (before.view(), after.view())
            #expect(a.lastSequence == b.lastSequence && a.purgedThrough == b.purgedThrough, "\(copy)")
            #expect(a.lastSequence > 100)
            for since in 0...a.lastSequence {
                let left = Result { try a.changes(since: since, limit: 100_000) }
                let right = Result { try b.changes(since: since, limit: 100_000) }
                switch (left, right) {
                case (.success(let x), .success(let y)):
                    #expect(describe(x) == describe(y), "seed \(seed), \(copy), since \(since)")
                case (.failure(let x as StockpotError), .failure(let y as StockpotError)):
                    #expect(x.code == y.code && x.code == .changesExpired, "seed \(seed), \(copy), since \(since)")
                default:
                    Issue.record("seed \(seed), \(copy), since \(since): \(left) against \(right)")
                }
            }
        }
    }

    private func describe(_ page: ChangePage) -> [String] {
        page.changes.map { change in
            let document = change.document.map { String(decoding: JSONWriter.write($0), as: UTF8.self) } ?? "-"
            let key = change.key.map { String(decoding: JSONWriter.write($0), as: UTF8.self) } ?? "-"
            return "\(change.sequence) \(change.soupName) \(change.operation.rawValue) \(change.entryID ?? 0) \(key) \(document)"
        } + ["last \(page.lastSequence) more \(page.hasMore)"]
    }
}
