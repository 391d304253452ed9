// Ordered visits of the key directory: where forEach(from:) starts (before all, between keys,
// on a key, after all), stopping early, errors thrown out of the body, and byte order.
import Testing
import StockpotStorage
import StockpotTestSupport

@Suite struct KeyDirectoryIterationTests {
    typealias T = KeyDirectoryTesting

    /// Keys where prefixes, 0x00 and 0xFF matter for the order.
    static let keys: [[UInt8]] = [
        [0x62], [0x62, 0x00], [0x62, 0x61], [0x62, 0xFF], [0x64], [0x64, 0x00, 0x00], [0x66], [0xFF],
    ]

    static func small() -> KeyDirectory {
        var directory = KeyDirectory(leafCapacity: 2, branchCapacity: 4)
        for (i, key) in keys.enumerated().reversed() {
            directory.setLocation(T.location(UInt64(i)), for: key)
        }
        return directory
    }

    @Test(arguments: [
        // (start, index of the first key visited)
        ([UInt8]?.none, 0), ([], 0), ([0x00], 0), ([0x61, 0xFF], 0),  // before all
        ([0x62], 0), ([0x62, 0x61], 2), ([0xFF], 7),  // equal to a key
        ([0x62, 0x00, 0x00], 2), ([0x63], 4), ([0x64, 0x00], 5), ([0x65, 0xFF, 0xFF], 6),  // between
        ([0xFF, 0x00], 8), ([0xFF, 0xFF, 0xFF], 8),  // after all
    ])
    func visitingStartsAtTheFirstKeyNotBeforeTheStart(start: [UInt8]?, first: Int) {
        let visited = T.entries(Self.small(), from: start)
        #expect(visited.map(\.0) == Array(Self.keys[first...]), "start \(String(describing: start))")
        #expect(visited.map(\.1) == (first..<Self.keys.count).map { T.location(UInt64($0)) })
    }

    @Test func returningFalseStopsTheVisit() {
        var visited: [[UInt8]] = []
        Self.small().forEach(from: [0x62, 0x01]) { key, _ in
            visited.append(Array(key))
            return visited.count < 3
        }
        #expect(visited == Array(Self.keys[2..<5]))
    }

    @Test func anErrorFromTheBodyEndsTheVisit() {
        struct Stop: Error {}
        var visited = 0
        #expect(throws: Stop.self) {
            try Self.small().forEach { _, _ in
                visited += 1
                if visited == 4 { throw Stop() }
                return true
            }
        }
        #expect(visited == 4)
    }

    @Test func anEmptyDirectoryVisitsNothing() {
        #expect(T.entries(KeyDirectory()).isEmpty)
        #expect(T.entries(KeyDirectory(), from: [0x61]).isEmpty)
    }

    @Test(arguments: [(2, 4), (5, 6), (64, 64)])
    func randomStartsMatchTheSortedModel(leaf: Int, branch: Int) {
        let seed = 0x17E2 &+ UInt64(leaf)
        var rng = SeededRandom(seed: seed)
        var directory = KeyDirectory(leafCapacity: leaf, branchCapacity: branch)
        var model = T.Model()
        var pool: [[UInt8]] = []
        for i in 0..<3000 {
            let key = T.randomKey(&rng, pool: pool)
            pool.append(key)
            model[key] = T.location(UInt64(i))
            directory.setLocation(T.location(UInt64(i)), for: key)
        }
        let sorted = model.keys.sorted { $0.lexicographicallyPrecedes($1) }
        for probe in 0..<200 {
            // Half the starts are stored keys, half arbitrary (mostly between keys).
            let start = probe % 2 == 0 ? pool[rng.below(pool.count)] : T.randomKey(&rng, pool: pool)
            let expected = sorted.drop { $0.lexicographicallyPrecedes(start) }.prefix(50)
            var visited: [[UInt8]] = []
            directory.forEach(from: start) { key, location in
                visited.append(Array(key))
                #expect(model[Array(key)] == location, "seed \(seed), start \(start)")
                return visited.count < 50
            }
            #expect(visited == Array(expected), "seed \(seed), start \(start)")
        }
    }

    @Test func keysOrderByUnsignedBytesWithPrefixesFirst() {
        var directory = KeyDirectory()
        let keys: [[UInt8]] = [[0x80], [0x7F, 0xFF], [0x7F], [0x00], [0x00, 0x00], [0xFF], [0x01]]
        for (i, key) in keys.enumerated() { directory.setLocation(T.location(UInt64(i)), for: key) }
        #expect(T.entries(directory).map(\.0) == [[0x00], [0x00, 0x00], [0x01], [0x7F], [0x7F, 0xFF], [0x80], [0xFF]])
    }
}
