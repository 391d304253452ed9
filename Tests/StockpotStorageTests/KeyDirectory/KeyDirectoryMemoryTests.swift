// Memory of the key directory as approximateMemoryBytes reports it: within 48 bytes a key plus
// the key's bytes for random and sequential keys, given back when most keys are removed, and
// bounded under churn. (Measured against malloc in the benchmark notes, not here.)
import Testing
import StockpotStorage
import StockpotTestSupport

@Suite struct KeyDirectoryMemoryTests {
    typealias T = KeyDirectoryTesting

    /// The budget: 48 bytes a key besides the key's own bytes.
    static let bytesPerKey = 48

    static func randomKey(_ rng: inout SeededRandom) -> [UInt8] {
        withUnsafeBytes(of: rng.next()) { Array($0) } + withUnsafeBytes(of: rng.next()) { Array($0) }
    }

    @Test func randomKeysStayWithinTheBudget() {
        let seed: UInt64 = 0x3E30
        var rng = SeededRandom(seed: seed)
        var directory = KeyDirectory()
        let n = 100_000
        for i in 0..<n { directory.setLocation(T.location(UInt64(i)), for: Self.randomKey(&rng)) }
        let memory = directory.approximateMemoryBytes
        #expect(directory.count == n, "seed \(seed)")
        #expect(memory <= n * (Self.bytesPerKey + 16), "seed \(seed): \(memory) bytes for \(n) keys")
        // The arena holds the key bytes, so less than that means the accounting is broken.
        #expect(memory >= n * (16 + 21), "seed \(seed): \(memory) bytes is less than the keys and locations")
    }

    @Test func sequentialKeysFillTheirLeaves() {
        var directory = KeyDirectory()
        let n = 100_000
        for i in 0..<n { directory.setLocation(T.location(UInt64(i)), for: T.spaceKey(7, UInt64(i))) }
        let memory = directory.approximateMemoryBytes
        // Append splits leave full leaves: well under the budget, near the bytes a key needs
        // (12 key bytes, a 21-byte location and an 8-byte slot).
        #expect(memory <= n * (Self.bytesPerKey + 12), "\(memory) bytes for \(n) keys")
        #expect(memory <= n * (12 + 21 + 8 + 6), "\(memory) bytes for \(n) keys: leaves not full")
        #expect(directory.invariantViolation() == nil)
    }

    @Test func removingMostKeysGivesMemoryBack() {
        let seed: UInt64 = 0x3E31
        var rng = SeededRandom(seed: seed)
        var directory = KeyDirectory()
        var keys: [[UInt8]] = []
        for i in 0..<100_000 {
            let key = Self.randomKey(&rng)
            keys.append(key)
            directory.setLocation(T.location(UInt64(i)), for: key)
        }
        let full = directory.approximateMemoryBytes
        keys.shuffle(using: &rng)
        for key in keys[10_000...] { directory.removeLocation(for: key) }
        let remaining = directory.approximateMemoryBytes
        #expect(directory.count == 10_000, "seed \(seed)")
        #expect(remaining * 5 <= full, "seed \(seed): \(full) bytes before, \(remaining) after removing 90%")
        #expect(remaining <= 10_000 * (Self.bytesPerKey + 16), "seed \(seed): \(remaining) bytes for 10000 keys")
        #expect(directory.invariantViolation() == nil, "seed \(seed)")
        for key in keys[..<10_000] { directory.removeLocation(for: key) }
        #expect(directory.approximateMemoryBytes == 0, "seed \(seed)")
    }

    @Test func churnKeepsMemoryBounded() {
        // A steady 10,000 keys, replaced ten times over in random order.
        let seed: UInt64 = 0x3E32
        var rng = SeededRandom(seed: seed)
        var directory = KeyDirectory()
        var live: [[UInt8]] = []
        for i in 0..<10_000 {
            let key = Self.randomKey(&rng)
            live.append(key)
            directory.setLocation(T.location(UInt64(i)), for: key)
        }
        let settled = directory.approximateMemoryBytes
        var peak = settled
        for round in 0..<10 {
            for step in 0..<10_000 {
                let victim = rng.below(live.count)
                directory.removeLocation(for: live[victim])
                live[victim] = Self.randomKey(&rng)
                directory.setLocation(T.location(UInt64(round * 10_000 + step)), for: live[victim])
            }
            peak = max(peak, directory.approximateMemoryBytes)
        }
        #expect(directory.count == 10_000, "seed \(seed)")
        #expect(peak * 4 <= settled * 5, "seed \(seed): \(settled) bytes settled, \(peak) at the peak")
        #expect(peak <= 10_000 * (Self.bytesPerKey + 16), "seed \(seed): \(peak) bytes for 10000 keys")
        #expect(directory.invariantViolation() == nil, "seed \(seed)")
    }
}
