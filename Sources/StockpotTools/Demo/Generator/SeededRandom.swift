// A small, seeded pseudo-random generator (xoshiro256**, seeded through SplitMix64) so the
// benchmark corpus is byte-for-byte the same for the same seed on every machine.

/// SplitMix64: expands one 64-bit seed into a stream of well-mixed words. Used only to seed
/// ``SeededRandom``.
package struct SplitMix64 {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// xoshiro256**: fast, deterministic and good enough for synthetic data. Not for security.
package struct SeededRandom: RandomNumberGenerator {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// Creates a generator whose whole output is determined by `seed`.
    package init(seed: UInt64) {
        var mixer = SplitMix64(seed: seed)
        s0 = mixer.next()
        s1 = mixer.next()
        s2 = mixer.next()
        s3 = mixer.next()
    }

    package mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, by: 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotateLeft(s3, by: 45)
        return result
    }

    /// A uniform integer in `0..<bound` (Lemire's multiply-and-reject; no modulo bias).
    package mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let limit = UInt64(bound)
        var product = next().multipliedFullWidth(by: limit)
        if product.low < limit {
            let threshold = (0 &- limit) % limit
            while product.low < threshold {
                product = next().multipliedFullWidth(by: limit)
            }
        }
        return Int(product.high)
    }

    /// A uniform integer in `range`.
    package mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// A uniform double in `[0, 1)` with 53 random bits.
    package mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// `true` with probability `probability`.
    package mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    /// A uniformly chosen element of a non-empty array.
    package mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[below(elements.count)]
    }

    private func rotateLeft(_ x: UInt64, by k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }
}
