// Searching a key directory node's block: byte-wise comparison a word at a time, the common
// prefix check against the header's prefix head, and a branch-free binary search of the
// (hint, end) slots (a few adjacent cache lines, fetched together) that leaves one full key
// comparison.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension KeyDirectoryNodeBlock {
    /// Compares `probe` with key `i` by unsigned bytes, a prefix first: negative when the probe
    /// sorts first, zero when equal, positive when it sorts after.
    @inline(__always) func compare(_ probe: UnsafeRawBufferPointer, withKeyAt i: Int) -> Int {
        let start = self.start(at: i)
        let length = end(at: i) - start
        guard let probeBytes = probe.baseAddress else { return -length }
        return Self.compare(probeBytes, probe.count, UnsafeRawPointer(arena + start), length)
    }

    /// Compares two byte strings by unsigned bytes, a prefix first, eight bytes at a time
    /// (loaded unaligned, compared as big-endian integers); memcmp past 64 common bytes.
    @inline(__always) static func compare(
        _ a: UnsafeRawPointer, _ aCount: Int, _ b: UnsafeRawPointer, _ bCount: Int
    ) -> Int {
        let common = min(aCount, bCount)
        var i = 0
        while i + 8 <= common {
            let x = a.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let y = b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if x != y { return UInt64(bigEndian: x) < UInt64(bigEndian: y) ? -1 : 1 }
            i += 8
            if i == 64 && common > 64 {
                let order = memcmp(a + 64, b + 64, common - 64)
                return order != 0 ? Int(order) : aCount - bCount
            }
        }
        while i < common {
            let x = a.load(fromByteOffset: i, as: UInt8.self)
            let y = b.load(fromByteOffset: i, as: UInt8.self)
            if x != y { return x < y ? -1 : 1 }
            i += 1
        }
        return aCount - bCount
    }

    /// The length of the longest common prefix of `a` and `b`.
    static func commonPrefixLength(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let limit = min(a.count, b.count)
        var i = 0
        while i + 8 <= limit
            && a.loadUnaligned(fromByteOffset: i, as: UInt64.self) == b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        {
            i += 8
        }
        while i < limit && a[i] == b[i] { i += 1 }
        return i
    }

    /// Up to `count` (at most 8) bytes at `offset` of `bytes` as a big-endian integer, padded
    /// with zero bytes on the right.
    @inline(__always) static func packed(_ bytes: UnsafeRawBufferPointer, at offset: Int, count: Int) -> UInt64 {
        let available = min(count, bytes.count - offset)
        guard available > 0 else { return 0 }
        if bytes.count - offset >= 8 {
            let word = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            return available == 8 ? word : word & ~(UInt64.max >> (8 * available))
        }
        var value: UInt64 = 0
        for i in 0..<available {
            value |= UInt64(bytes[offset + i]) << (56 - 8 * i)
        }
        return value
    }

    /// The hint of `key` for a node with this prefix length: its 4 bytes after the prefix,
    /// big-endian, zero-padded. For keys that start with the prefix, `hint(a) < hint(b)`
    /// implies `a < b`, and `a < b` implies `hint(a) <= hint(b)`.
    @inline(__always) static func hint(of key: UnsafeRawBufferPointer, prefixLength offset: Int) -> UInt32 {
        if key.count >= offset + 4 {
            return UInt32(bigEndian: key.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }
        return UInt32(truncatingIfNeeded: packed(key, at: offset, count: 4) >> 32)
    }

    /// The first 16 bytes (at most `length`) of `key`, as the prefix head.
    static func packHead(_ key: UnsafeRawBufferPointer, length: Int) -> (UInt64, UInt64) {
        (packed(key, at: 0, count: min(length, 8)), length > 8 ? packed(key, at: 8, count: min(length - 8, 8)) : 0)
    }

    /// How `probe` orders against the node's common prefix: negative when it sorts before
    /// every key, positive when after every key, zero when it starts with the prefix.
    @inline(__always) func prefixOrder(_ probe: UnsafeRawBufferPointer) -> Int {
        let length = prefixLength
        guard length > 0 else { return 0 }
        if length > 16 {
            guard let bytes = probe.baseAddress else { return -1 }
            return Self.compare(bytes, min(probe.count, length), UnsafeRawPointer(arena), length)
        }
        let head = prefixHead
        let first = Self.packed(probe, at: 0, count: min(length, 8))
        if first != head.0 { return first < head.0 ? -1 : 1 }
        if length > 8 {
            let second = Self.packed(probe, at: 8, count: length - 8)
            if second != head.1 { return second < head.1 ? -1 : 1 }
        }
        return probe.count < length ? -1 : 0
    }

    /// The number of hints below `hint`: a branch-free binary search (hints never decrease).
    /// Each step halves the range with a conditional move, not a branch, so nothing
    /// mispredicts; it reads about log2(count) slots (7 for 64 keys) where a scan of every
    /// slot, even four at a time, costs about 190 instructions a node. The slots' lines were
    /// asked for with the node's header, so the dependent reads hit the cache.
    @inline(__always) private func hintRank(_ hint: UInt32) -> Int {
        var base = 0
        var length = count
        guard length > 0 else { return 0 }
        while length > 1 {
            let half = length >> 1
            // base moves past the first half when that half's last hint is below `hint`.
            base = self.hint(at: base + half - 1) < hint ? base + half : base
            length -= half
        }
        return base &+ (self.hint(at: base) < hint ? 1 : 0)
    }

    /// The index of `probe` in this leaf, or `nil`. Needs no prefix check: a probe without the
    /// prefix gets some position whose full comparison then fails.
    @inline(__always) func index(of probe: UnsafeRawBufferPointer) -> Int? {
        index(of: probe, from: candidate(for: probe))
    }

    /// Where `probe`'s search in this leaf reads keys from: the first slot whose hint is not
    /// below the probe's (read from the slots alone).
    @inline(__always) func candidate(for probe: UnsafeRawBufferPointer) -> Int {
        hintRank(Self.hint(of: probe, prefixLength: prefixLength))
    }

    /// ``index(of:)`` with the candidate from ``candidate(for:)``.
    @inline(__always) func index(of probe: UnsafeRawBufferPointer, from candidate: Int) -> Int? {
        let used = count
        let hint = Self.hint(of: probe, prefixLength: prefixLength)
        var i = candidate
        while i < used && self.hint(at: i) == hint {
            let order = compare(probe, withKeyAt: i)
            if order == 0 { return i }
            if order < 0 { return nil }
            i += 1
        }
        return nil
    }

    /// The index of the first key not less than `probe`, and whether it equals `probe`.
    /// A probe past the last key (an append) is answered from the last hint.
    @inline(__always) func lowerBound(_ probe: UnsafeRawBufferPointer) -> (index: Int, found: Bool) {
        let used = count
        guard used > 0 else { return (0, false) }
        let order = prefixOrder(probe)
        if order != 0 { return (order < 0 ? 0 : used, false) }
        let hint = Self.hint(of: probe, prefixLength: prefixLength)
        var i = self.hint(at: used - 1) < hint ? used : hintRank(hint)
        while i < used && self.hint(at: i) == hint {
            let order = compare(probe, withKeyAt: i)
            if order == 0 { return (i, true) }
            if order < 0 { break }
            i += 1
        }
        return (i, false)
    }

    /// The child of this branch whose range holds `probe`: the number of separators `<= probe`.
    @inline(__always) func childIndex(for probe: UnsafeRawBufferPointer) -> Int {
        let used = count
        guard used > 0 else { return 0 }
        let order = prefixOrder(probe)
        if order != 0 { return order < 0 ? 0 : used }
        let hint = Self.hint(of: probe, prefixLength: prefixLength)
        var i = self.hint(at: used - 1) < hint ? used : hintRank(hint)
        while i < used && self.hint(at: i) == hint && compare(probe, withKeyAt: i) >= 0 {
            i += 1
        }
        return i
    }
}
