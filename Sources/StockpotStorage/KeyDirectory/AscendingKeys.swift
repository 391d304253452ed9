// Keys collected in strictly ascending order for one bulk build of the key directory, packed
// back to back in one byte array: an open reads 100,000s of keys from hint files, and an array
// per key (allocated, then released after the build) was most of the open's time.

/// Keys in strictly ascending order with their locations, packed in one arena.
///
/// A value; not shared between threads while it is appended to.
package struct AscendingKeys {
    /// Every key's bytes, back to back, then unused room (zeros): keys are copied in with one
    /// `memcpy` each rather than `append(contentsOf:)`, which goes byte by byte.
    private(set) var arena: [UInt8] = []
    /// Where each key ends in `arena` (it starts where the previous one ends).
    private(set) var ends: [UInt32] = []
    /// Each key's location.
    private(set) var locations: [KeyLocation] = []

    /// No keys.
    package init() {}

    /// The number of keys.
    package var count: Int { ends.count }

    /// The bytes of every key together.
    package var byteCount: Int { ends.last.map(Int.init) ?? 0 }

    /// Room for `keys` keys of `bytes` bytes in all, to avoid regrowing.
    package mutating func reserveCapacity(keys: Int, bytes: Int) {
        if arena.count < bytes { arena.append(contentsOf: repeatElement(0, count: bytes - arena.count)) }
        ends.reserveCapacity(keys)
        locations.reserveCapacity(keys)
    }

    /// Appends `key` when it sorts strictly after the last key, and returns whether it did.
    ///
    /// - Precondition: `key` is 1...65,535 bytes (the caller's format checks say so).
    package mutating func appendIfAscending(_ key: UnsafeRawBufferPointer, _ location: KeyLocation) -> Bool {
        precondition(
            key.count >= 1 && key.count <= KeyDirectory.maximumKeyLength,
            "AscendingKeys: a key is 1...65535 bytes, got \(key.count)")
        if let last = ends.last, let keyBase = key.baseAddress {
            let start = ends.count > 1 ? Int(ends[ends.count - 2]) : 0
            let ascends = arena.withUnsafeBytes { arena in
                guard let arenaBase = arena.baseAddress else { return true }
                return KeyDirectoryNodeBlock.compare(arenaBase + start, Int(last) - start, keyBase, key.count) < 0
            }
            guard ascends else { return false }
        }
        let start = ends.last.map(Int.init) ?? 0
        let end = start + key.count
        if end > arena.count {
            arena.append(contentsOf: repeatElement(0, count: max(end, 2 * arena.count) - arena.count))
        }
        arena.withUnsafeMutableBytes { arena in
            if let target = arena.baseAddress, let source = key.baseAddress {
                (target + start).copyMemory(from: source, byteCount: key.count)
            }
        }
        ends.append(UInt32(end))
        locations.append(location)
        return true
    }

    /// The bytes of keys `range` together.
    func byteCount(_ range: Range<Int>) -> Int {
        guard !range.isEmpty else { return 0 }
        let start = range.lowerBound == 0 ? 0 : Int(ends[range.lowerBound - 1])
        return Int(ends[range.upperBound - 1]) - start
    }
}

extension AscendingKeys {
    /// Drops every key after the first `count` (what a caller collected from a file that then
    /// failed its checks).
    package mutating func removeLast(after count: Int) {
        guard count < self.count else { return }
        ends.removeSubrange(count...)
        locations.removeSubrange(count...)
    }
}
