// Shared helpers for the key directory tests: a seeded SeededRandom generator, key generators
// with shared prefixes, and a full comparison of a directory against a dictionary model.
import StockpotStorage
import StockpotTestSupport

/// Namespace for the key directory test helpers (kept apart from other suites' helpers).
enum KeyDirectoryTesting {
    typealias Model = [[UInt8]: KeyLocation]

    /// The dictionary model plus its keys in an array, so picking a random live key depends
    /// only on the seed (dictionary order changes from process to process).
    struct IndexedModel {
        private(set) var values = Model()
        private var keys: [[UInt8]] = []
        private var positions: [[UInt8]: Int] = [:]

        var count: Int { values.count }
        var isEmpty: Bool { values.isEmpty }
        subscript(key: [UInt8]) -> KeyLocation? { values[key] }

        /// Stores `location` for `key`; returns the previous location.
        @discardableResult
        mutating func set(_ location: KeyLocation, for key: [UInt8]) -> KeyLocation? {
            if positions[key] == nil {
                positions[key] = keys.count
                keys.append(key)
            }
            return values.updateValue(location, forKey: key)
        }

        /// Removes `key`; returns its location.
        @discardableResult
        mutating func remove(_ key: [UInt8]) -> KeyLocation? {
            guard let position = positions.removeValue(forKey: key) else { return nil }
            let last = keys.removeLast()
            if position < keys.count {
                keys[position] = last
                positions[last] = position
            }
            return values.removeValue(forKey: key)
        }

        /// A live key picked by `rng`, or `nil` when there is none.
        func randomKey(_ rng: inout SeededRandom) -> [UInt8]? {
            keys.isEmpty ? nil : keys[rng.below(keys.count)]
        }
    }

    /// A location whose fields all derive from `n`, so a wrong one is visible.
    static func location(_ n: UInt64) -> KeyLocation {
        KeyLocation(
            segment: UInt32(truncatingIfNeeded: n % 1000), offset: UInt32(truncatingIfNeeded: n &* 7),
            length: UInt32(truncatingIfNeeded: n % 4099 + 1), sequence: n,
            kind: n % 2 == 0 ? 1 : 3)
    }

    /// A random key: short keys over a tiny alphabet (many shared prefixes, keys that are
    /// prefixes of others, 0x00 and 0xFF bytes), or extensions and truncations of `pool` keys,
    /// or now and then a long one.
    static func randomKey(_ rng: inout SeededRandom, pool: [[UInt8]]) -> [UInt8] {
        let alphabet: [UInt8] = [0x00, 0x01, 0x61, 0x62, 0x7F, 0x80, 0xFF]
        switch rng.below(10) {
        case 0..<4:
            return (0..<(1 + rng.below(4))).map { _ in alphabet[rng.below(alphabet.count)] }
        case 4..<7 where !pool.isEmpty:
            var key = pool[rng.below(pool.count)]
            if rng.oneIn(2) && key.count > 1 {
                key.removeLast(1 + rng.below(key.count - 1))
            } else {
                key += (0..<(1 + rng.below(3))).map { _ in alphabet[rng.below(alphabet.count)] }
            }
            return key
        case 7 where rng.oneIn(8):
            return (0..<(200 + rng.below(2000))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        default:
            return (0..<(1 + rng.below(24))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        }
    }

    /// A key of `space` and `counter`, both big-endian, as the store builds them.
    static func spaceKey(_ space: UInt32, _ counter: UInt64) -> [UInt8] {
        withUnsafeBytes(of: space.bigEndian) { Array($0) } + withUnsafeBytes(of: counter.bigEndian) { Array($0) }
    }

    /// Every entry of `directory` in visiting order.
    static func entries(_ directory: KeyDirectory, from start: [UInt8]? = nil) -> [([UInt8], KeyLocation)] {
        var result: [([UInt8], KeyLocation)] = []
        directory.forEach(from: start) { key, location in
            result.append((Array(key), location))
            return true
        }
        return result
    }

    /// The first difference between `directory` and `model` (count, structure, each lookup,
    /// ordered iteration), or `nil` when they agree.
    static func difference(_ directory: KeyDirectory, _ model: Model) -> String? {
        if directory.count != model.count { return "count \(directory.count), model \(model.count)" }
        if let problem = directory.invariantViolation() { return "invariant: \(problem)" }
        for (key, location) in model {
            let found = directory.location(for: key)
            if found != location { return "lookup \(key): \(String(describing: found)), model \(location)" }
        }
        let sorted = model.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        let visited = entries(directory)
        if visited.count != sorted.count { return "iteration visited \(visited.count) of \(sorted.count)" }
        for (i, (key, location)) in visited.enumerated() where key != sorted[i].key || location != sorted[i].value {
            return "iteration entry \(i): \(key) -> \(location), model \(sorted[i].key) -> \(sorted[i].value)"
        }
        return nil
    }
}
