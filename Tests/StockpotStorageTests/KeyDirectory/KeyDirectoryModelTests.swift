// Model-based random tests of the key directory: seeded mixes of inserts, overwrites and
// removals checked step by step against a plain dictionary, at several node sizes.
import Testing
import StockpotStorage
import StockpotTestSupport

@Suite struct KeyDirectoryModelTests {
    typealias T = KeyDirectoryTesting

    /// Node sizes: tiny ones make deep trees with many splits and merges per step; the
    /// largest ones search windows of up to 1,024 slots.
    static let shapes: [(leaf: Int, branch: Int)] = [(2, 4), (3, 5), (8, 8), (64, 64), (1024, 1024), (700, 300)]

    @Test(arguments: 0..<12)
    func randomOperationsMatchTheDictionaryModel(run: Int) {
        let seed = 0x4B45_5944_0000 &+ UInt64(run) &* 0x9E37_79B9
        let shape = Self.shapes[run % Self.shapes.count]
        var rng = SeededRandom(seed: seed)
        var directory = KeyDirectory(leafCapacity: shape.leaf, branchCapacity: shape.branch)
        var model = T.IndexedModel()
        var pool: [[UInt8]] = []
        let context = "seed \(seed), leaf \(shape.leaf), branch \(shape.branch)"

        for step in 0..<6000 {
            // Grow for a while, then shrink, twice over: trees get deep and collapse again.
            let growing = (step / 1500) % 2 == 0
            let roll = rng.below(100)
            if roll < (growing ? 60 : 25) {
                let key = T.randomKey(&rng, pool: pool)
                pool.append(key)
                let location = T.location(rng.next())
                let previous = directory.setLocation(location, for: key)
                let expected = model.set(location, for: key)
                #expect(previous == expected, "\(context), step \(step): set \(key) returned \(String(describing: previous))")
            } else if roll < (growing ? 70 : 35), let key = model.randomKey(&rng) {
                let location = T.location(rng.next())
                let previous = directory.setLocation(location, for: key)
                let expected = model.set(location, for: key)
                #expect(previous == expected, "\(context), step \(step): overwrite \(key)")
            } else if roll < 95 {
                let key = rng.oneIn(3) || model.isEmpty ? T.randomKey(&rng, pool: pool) : model.randomKey(&rng)!
                let removed = directory.removeLocation(for: key)
                #expect(removed == model.remove(key), "\(context), step \(step): remove \(key)")
            } else {
                let key = T.randomKey(&rng, pool: pool)
                #expect(directory.location(for: key) == model[key], "\(context), step \(step): lookup \(key)")
            }
            if step % 97 == 0 || step == 5999 {
                let problem = T.difference(directory, model.values)
                #expect(problem == nil, "\(context), step \(step): \(problem ?? "")")
                if problem != nil { return }
            }
        }
    }

    @Test(arguments: 0..<4)
    func interleavedSequentialSpacesMatchTheModel(run: Int) {
        // The store's keys: [space][increasing id] in a few spaces at once, with deletes.
        let seed = 0x5EC0_0000 &+ UInt64(run)
        let shape = Self.shapes[run % Self.shapes.count]
        var rng = SeededRandom(seed: seed)
        var directory = KeyDirectory(leafCapacity: shape.leaf, branchCapacity: shape.branch)
        var model = T.Model()
        var counters: [UInt64] = [0, 0, 0]
        let context = "seed \(seed), leaf \(shape.leaf), branch \(shape.branch)"
        for step in 0..<8000 {
            let space = rng.below(10) < 7 ? 0 : 1 + rng.below(2)
            if rng.oneIn(5), counters[space] > 0 {
                let key = T.spaceKey(UInt32(space), UInt64(rng.below(Int(counters[space]))))
                #expect(directory.removeLocation(for: key) == model.removeValue(forKey: key), "\(context), step \(step)")
            } else {
                let key = T.spaceKey(UInt32(space), counters[space])
                counters[space] += 1
                let location = T.location(UInt64(step))
                #expect(directory.setLocation(location, for: key) == nil, "\(context), step \(step)")
                model[key] = location
            }
            if step % 500 == 0 {
                let problem = T.difference(directory, model)
                #expect(problem == nil, "\(context), step \(step): \(problem ?? "")")
                if problem != nil { return }
            }
        }
        #expect(T.difference(directory, model) == nil, "\(context)")
    }

    @Test(arguments: 0..<4)
    func batchLookupsGiveWhatSingleLookupsGive(run: Int) {
        // Pages of 12-byte store keys (present, removed and never written, some repeated, in
        // random order) looked up together, in trees of every depth as they grow and shrink.
        let seed = 0xBA7C_0000 &+ UInt64(run)
        let shape = Self.shapes[run % Self.shapes.count]
        var rng = SeededRandom(seed: seed)
        var directory = KeyDirectory(leafCapacity: shape.leaf, branchCapacity: shape.branch)
        var model = T.Model()
        let context = "seed \(seed), leaf \(shape.leaf), branch \(shape.branch)"
        #expect(directory.locations(forKeys: UnsafeRawBufferPointer(start: nil, count: 0), keyLength: 12).isEmpty)
        for step in 0..<3000 {
            let key = T.spaceKey(UInt32(rng.below(3)), UInt64(rng.below(2000)))
            if rng.below(4) < 3 {
                let location = T.location(UInt64(step))
                directory.setLocation(location, for: key)
                model[key] = location
            } else {
                directory.removeLocation(for: key)
                model[key] = nil
            }
            guard step % 150 == 0 else { continue }
            let page = (0..<(1 + rng.below(120))).map { _ in T.spaceKey(UInt32(rng.below(4)), UInt64(rng.below(2200))) }
            let packed = page.flatMap { $0 }
            let found = packed.withUnsafeBytes { directory.locations(forKeys: $0, keyLength: 12) }
            #expect(found == page.map { model[$0] }, "\(context), step \(step): a page of \(page.count) keys")
            #expect(found == page.map { directory.location(for: $0) }, "\(context), step \(step)")
        }
    }

    @Test(arguments: 0..<4)
    func longSharedPrefixesMatchTheModel(run: Int) {
        // Nodes whose keys share 3, 9, 17 or 70 bytes: the prefix head (up to 16 bytes), the
        // arena comparison past it, and hints past a prefix; tails are short, so many keys are
        // prefixes of others.
        let seed = 0x9F1E_0000 &+ UInt64(run)
        let shape = Self.shapes[run % Self.shapes.count]
        var rng = SeededRandom(seed: seed)
        let prefixes: [[UInt8]] = [3, 9, 17, 70].map { length in
            (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ length) }
        }
        var directory = KeyDirectory(leafCapacity: shape.leaf, branchCapacity: shape.branch)
        var model = T.IndexedModel()
        let context = "seed \(seed), leaf \(shape.leaf), branch \(shape.branch)"
        for step in 0..<4000 {
            var key = prefixes[rng.below(prefixes.count)]
            key.removeLast(rng.oneIn(4) ? rng.below(3) : 0)
            key += (0..<rng.below(4)).map { _ in UInt8(rng.below(3)) }
            if rng.below(3) < 2 {
                let location = T.location(UInt64(step))
                let expected = model.set(location, for: key)
                #expect(directory.setLocation(location, for: key) == expected, "\(context), step \(step)")
            } else {
                #expect(directory.removeLocation(for: key) == model.remove(key), "\(context), step \(step)")
            }
            if step % 250 == 0 || step == 3999 {
                let problem = T.difference(directory, model.values)
                #expect(problem == nil, "\(context), step \(step): \(problem ?? "")")
                if problem != nil { return }
            }
        }
    }

    @Test func longestKeysAreStoredAndOrdered() {
        var directory = KeyDirectory(leafCapacity: 4, branchCapacity: 4)
        var model = T.Model()
        for i in 0..<24 {
            var key = [UInt8](repeating: UInt8(i % 3), count: KeyDirectory.maximumKeyLength)
            key[KeyDirectory.maximumKeyLength - 1 - i % 5] = UInt8(i)
            model[key] = T.location(UInt64(i))
            directory.setLocation(T.location(UInt64(i)), for: key)
        }
        directory.setLocation(T.location(99), for: [0x00])
        model[[0x00]] = T.location(99)
        let problem = T.difference(directory, model)
        #expect(problem == nil, "\(problem ?? "")")
    }

    @Test func removingEveryKeyEmptiesTheDirectory() {
        let seed: UInt64 = 0xE4B7
        var rng = SeededRandom(seed: seed)
        var directory = KeyDirectory(leafCapacity: 3, branchCapacity: 4)
        var keys: [[UInt8]] = []
        for i in 0..<2000 {
            let key = T.randomKey(&rng, pool: keys)
            keys.append(key)
            directory.setLocation(T.location(UInt64(i)), for: key)
        }
        keys.shuffle(using: &rng)
        for key in keys { directory.removeLocation(for: key) }
        #expect(directory.count == 0, "seed \(seed)")
        #expect(directory.approximateMemoryBytes == 0, "seed \(seed)")
        #expect(T.entries(directory).isEmpty, "seed \(seed)")
        #expect(directory.invariantViolation() == nil, "seed \(seed)")
    }

    @Test func missingKeysAreNilAndRemoveNothing() {
        var directory = KeyDirectory()
        #expect(directory.location(for: [0x61]) == nil)
        #expect(directory.location(for: []) == nil)
        #expect(directory.removeLocation(for: [0x61]) == nil)
        directory.setLocation(T.location(1), for: [0x61, 0x62])
        #expect(directory.location(for: [0x61]) == nil)
        #expect(directory.location(for: [0x61, 0x62, 0x00]) == nil)
        #expect(directory.removeLocation(for: [0x61]) == nil)
        #expect(directory.count == 1)
        #expect(directory.location(for: [0x61, 0x62]) == T.location(1))
    }

    /// Keys that differ only by trailing zero bytes have equal search hints when a leaf's
    /// prefix leaves four bytes or fewer of them, which a lookup then tells apart by length
    /// alone. Every one of them, and each one's neighbours that are not keys, in leaves small
    /// enough that the prefixes are long.
    @Test func keysThatDifferByTrailingZerosAreToldApart() {
        var directory = KeyDirectory(leafCapacity: 4, branchCapacity: 4)
        var present: [[UInt8]: KeyLocation] = [:]
        var absent: [[UInt8]] = []
        for space in UInt32(1)...3 {
            for counter in UInt64(0)..<40 {
                let key = T.spaceKey(space, counter)
                // Even counters: the key, and the key with one and three zero bytes after it.
                // Odd counters: only the key with two zero bytes after it.
                let variants = counter % 2 == 0 ? [key, key + [0], key + [0, 0, 0]] : [key + [0, 0]]
                for (index, variant) in variants.enumerated() {
                    present[variant] = T.location(UInt64(space) * 1_000 + counter * 4 + UInt64(index))
                    directory.setLocation(present[variant]!, for: variant)
                }
                absent += counter % 2 == 0 ? [key + [0, 0], key + [0, 0, 0, 0], key + [1]] : [key, key + [0], key + [0, 0, 0]]
            }
        }
        #expect(directory.invariantViolation() == nil)
        for (key, location) in present { #expect(directory.location(for: key) == location, "\(key)") }
        for key in absent { #expect(directory.location(for: key) == nil, "\(key)") }
    }

    @Test func anEmptyKeyIsAProgrammerError() async {
        await #expect(processExitsWith: .failure) {
            var directory = KeyDirectory()
            directory.setLocation(KeyDirectoryTesting.location(1), for: [UInt8]())
        }
    }
}
