// Building a key directory from ascending entries (the open's bulk build): a valid tree with
// every entry at every size and node capacity, that later inserts and removals keep valid.

import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite struct KeyDirectoryBulkLoadTests {
    typealias T = KeyDirectoryTesting

    /// Ascending entries: random keys, sorted and deduplicated.
    static func ascendingEntries(count: Int, seed: UInt64) -> [(key: [UInt8], location: KeyLocation)] {
        var rng = SeededRandom(seed: seed)
        var keys = Set<[UInt8]>()
        var pool: [[UInt8]] = []
        while keys.count < count {
            let key = T.randomKey(&rng, pool: pool)
            if keys.insert(key).inserted { pool.append(key) }
        }
        return keys.sorted { $0.lexicographicallyPrecedes($1) }.enumerated().map { ($1, T.location(UInt64($0))) }
    }

    @Test(arguments: [0, 1, 2, 3, 4, 5, 17, 63, 64, 65, 200, 4_097, 20_000])
    func bulkLoadedTreeHoldsEveryEntry(count: Int) throws {
        let entries = Self.ascendingEntries(count: count, seed: 0xB01C + UInt64(count))
        let model = T.Model(uniqueKeysWithValues: entries.map { ($0.key, $0.location) })
        for (leaf, branch) in [(64, 64), (2, 4), (3, 5)] {
            let directory = KeyDirectory(ascending: entries, leafCapacity: leaf, branchCapacity: branch)
            let problem = T.difference(directory, model)
            #expect(problem == nil, "\(count) entries, capacities \(leaf)/\(branch): \(problem ?? "")")
        }
    }

    /// Store-shaped keys (a key space and a big-endian counter), as a store's hints hold them.
    @Test func sequentialStoreKeys() throws {
        let entries: [(key: [UInt8], location: KeyLocation)] = (1...10_000).map {
            (key: T.spaceKey(7, UInt64($0)), location: T.location(UInt64($0)))
        }
        let directory = KeyDirectory(ascending: entries)
        #expect(T.difference(directory, T.Model(uniqueKeysWithValues: entries.map { ($0.key, $0.location) })) == nil)
    }

    @Test(arguments: [0xB1_0001, 0xB1_0002] as [UInt64])
    func laterChangesKeepTheTreeValid(seed: UInt64) throws {
        print("KeyDirectoryBulkLoadTests seed \(seed)")
        let entries = Self.ascendingEntries(count: 3_000, seed: seed)
        var directory = KeyDirectory(ascending: entries, leafCapacity: 4, branchCapacity: 4)
        var model = T.Model(uniqueKeysWithValues: entries.map { ($0.key, $0.location) })
        let snapshot = directory
        var rng = SeededRandom(seed: seed)
        var pool = entries.map(\.key)
        for step in 0..<4_000 {
            if rng.oneIn(3), let key = pool.randomElement(using: &rng) {
                #expect(directory.removeLocation(for: key) == model.removeValue(forKey: key), "step \(step)")
            } else {
                let key = T.randomKey(&rng, pool: pool)
                pool.append(key)
                let location = T.location(rng.next())
                #expect(directory.setLocation(location, for: key) == model.updateValue(location, forKey: key), "step \(step)")
            }
        }
        #expect(T.difference(directory, model) == nil)
        // The copy taken before the changes still holds the bulk-loaded entries.
        #expect(T.difference(snapshot, T.Model(uniqueKeysWithValues: entries.map { ($0.key, $0.location) })) == nil)
    }
}
