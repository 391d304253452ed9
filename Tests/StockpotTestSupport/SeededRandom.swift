// The one seeded random generator of the tests (SplitMix64): small, fast, reproducible from
// its seed, which every random test prints so that a failure can be replayed.

/// SplitMix64. A value type: copying it forks the sequence.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    /// The generator's state; the next value depends only on it.
    public var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0 ..< bound` (0 when `bound` is not positive).
    public mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }

    /// `true` with probability `1 / n`.
    public mutating func oneIn(_ n: Int) -> Bool { below(n) == 0 }

    /// `true` with probability `percent / 100`.
    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One of `items`, which must not be empty.
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }

    /// The seed of a randomized test run: `STOCKPOT_SEED` when set, otherwise a fresh one.
    public static func seedFromEnvironment() -> UInt64 {
        TestEnvironment.integer("STOCKPOT_SEED").map { UInt64(truncatingIfNeeded: $0) }
            ?? UInt64.random(in: 0...UInt64.max)
    }
}
