// Model-based test of the change feed: random upserts, updates, deletes, clears, soup
// removals, purges, multi-operation transactions, reopens (with snapshots taken often),
// crashes (the files copied as a killed process leaves them, then opened; real kills are in
// ChangeFeedCrashTests, restores in DumpChangeFeedTests) and compactions; after each step the store's last sequence must be the model's and
// `changes(since:)`, read in pages of random size from earlier sequences, must list exactly
// what the model says changed, tombstones and soup events included.
// STOCKPOT_FEED_STEPS sets the steps (400 by default); STOCKPOT_FEED_SEED the seed.

import Foundation
import Stockpot
import StockpotTestSupport
import Testing

@Suite struct ChangeFeedModelTests {
    static let specs = [
        IndexSpec(path: "k", type: .string, unique: true, default: .newID), IndexSpec(path: "v", type: .string),
    ]

    @Test func feedMatchesTheModelThroughReopensAndCompactions() throws {
        let steps = TestEnvironment.integer("STOCKPOT_FEED_STEPS", default: 400)
        let seed = TestEnvironment.seed("STOCKPOT_FEED_SEED", default: 20_261_204)
        try withTemporaryDirectory { directory in
            var options = fastOptions()
            options.snapshotLogBytes = 4 << 10  // snapshots taken often, so reopens load them
            options.backgroundCompaction = false
            var store = try Store.open(directory: directory, options: options)
            defer { try? store.close() }
            var random = SeededRandom(seed: seed)
            var model = ChangeFeedModel()
            var seen: [UInt64] = [0]  // sequences a consumer may have stopped at
            var crashes = 0
            for step in 0..<steps {
                let context = "seed \(seed), step \(step)"
                let soup = random.pick(["a", "b"])
                model.begin()
                switch random.below(100) {
                case 0..<30:
                    let count = 1 + random.below(5)
                    let values = (0..<count).map { _ in "v\(random.below(1_000))" }
                    let stored = try store.write { transaction -> [JSONValue] in
                        try transaction.registerSoup(soup, indexSpecs: Self.specs)
                        return try transaction.upsert(values.map { ["v": .string($0)] }, into: soup)
                    }
                    model.register(soup)
                    let keys = stored.map { document -> String in
                        guard case .object(let object) = document, case .string(let key)? = object["k"] else { return "" }
                        return key
                    }
                    _ = model.insert(Array(zip(values, keys)), into: soup)
                case 30..<50:
                    guard let (id, entry) = model.entries[soup]?.randomElement(using: &random) else { continue }
                    let value = "u\(random.below(1_000))"
                    _ = try store.upsert([["_soupEntryId": .integer(id), "k": .string(entry.key), "v": .string(value)]], into: soup)
                    model.update(id, in: soup, value: value)
                case 50..<65:
                    guard model.entries[soup] != nil else { continue }
                    let ids = (0..<(1 + random.below(3))).map { _ in Int64(1 + random.below(Int(model.nextID[soup]!))) }
                    try store.delete(ids, from: soup)
                    model.delete(ids, from: soup)
                case 65..<69:
                    guard model.entries[soup] != nil else { continue }
                    try store.clearSoup(soup)
                    model.clear(soup)
                case 69..<72:
                    try store.removeSoup(soup)
                    model.remove(soup)
                case 72..<77:
                    let through = random.pick(seen)
                    try store.purgeTombstones(through: through)
                    model.purge(through: through)
                case 77..<82:
                    // Several changes in one commit: an insert, an update of it, a delete.
                    let values = ["t\(step)a", "t\(step)b"]
                    let stored = try store.write { transaction -> [JSONValue] in
                        try transaction.registerSoup(soup, indexSpecs: Self.specs)
                        let stored = try transaction.upsert(values.map { ["v": .string($0)] }, into: soup)
                        guard case .object(let first) = stored[0], case .integer(let id)? = first["_soupEntryId"] else { return stored }
                        _ = try transaction.upsert([["_soupEntryId": .integer(id), "k": first["k"]!, "v": .string("t\(step)c")]], into: soup)
                        try transaction.delete([id + 1], from: soup)
                        return stored
                    }
                    model.register(soup)
                    let keys = stored.map { document -> String in
                        guard case .object(let object) = document, case .string(let key)? = object["k"] else { return "" }
                        return key
                    }
                    let ids = model.insert(Array(zip(values, keys)), into: soup)
                    model.update(ids[0], in: soup, value: "t\(step)c")
                    model.delete([ids[1]], from: soup)
                case 82..<87:
                    try store.close()
                    store = try Store.open(directory: directory, options: options)
                case 87..<90:
                    // A crash: the files as a killed process leaves them (every commit written,
                    // no close, no final snapshot), opened in another directory.
                    crashes += 1
                    let copy = directory + "-crash\(crashes)"
                    try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
                    for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
                        try FileManager.default.copyItem(atPath: directory + "/" + name, toPath: copy + "/" + name)
                    }
                    let recovered = try Store.open(directory: copy, options: options)
                    #expect(recovered.lastSequence == model.lastSequence, "\(context): last sequence after a crash")
                    try checkFeed(recovered, model, from: seen, random: &random, context + " (after a crash)")
                    try recovered.close()
                    try store.close()
                    try FileManager.default.removeItem(atPath: directory)
                    try FileManager.default.moveItem(atPath: copy, toPath: directory)
                    store = try Store.open(directory: directory, options: options)
                case 90..<94:
                    _ = try store.compact()
                default:
                    // A transaction that writes nothing takes no sequence.
                    try store.write { _ in }
                }
                model.end()
                #expect(store.lastSequence == model.lastSequence, "\(context): last sequence")
                seen.append(model.lastSequence)
                try checkFeed(store, model, from: seen, random: &random, context)
            }
        }
    }

    /// Reads the feed from a few of `seen` (and the ends), in pages of random size, and
    /// compares it with the model.
    func checkFeed(
        _ store: Store, _ model: ChangeFeedModel, from seen: [UInt64], random: inout SeededRandom, _ context: String
    ) throws {
        var starts = [0, model.purgedThrough, model.lastSequence]
        for _ in 0..<3 { starts.append(random.pick(seen)) }
        for since in starts {
            let soups: Set<String>? = random.oneIn(4) ? [random.pick(["a", "b"])] : nil
            let expected = model.changes(since: since, soups: soups)
            let view = store.view()
            guard let expected else {
                #expect(
                    errorCode { _ = try view.changes(since: since, soups: soups.map(Array.init)) } == .changesExpired,
                    "\(context): since \(since) must have expired (purged through \(model.purgedThrough))")
                continue
            }
            var read: [ChangeFeedModel.Item] = []
            var position = since
            var pages = 0
            while true {
                let page = try view.changes(since: position, soups: soups.map(Array.init), limit: 1 + random.below(7))
                read += page.changes.map(ChangeFeedModel.Item.init)
                #expect(page.lastSequence >= position, "\(context): a page went back")
                position = page.lastSequence
                pages += 1
                guard page.hasMore, pages < 10_000 else { break }
            }
            #expect(read == expected, "\(context): since \(since), soups \(soups.map { Array($0) } ?? [])")
        }
    }
}
