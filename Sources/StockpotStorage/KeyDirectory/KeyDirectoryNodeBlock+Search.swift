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

    /// The number of hints below `hint` (hints never decrease, so it is where `hint` would go):
    /// a binary search without branches on the data. The first probe, at the largest power of
    /// two `p` not above the count, leaves a window of `p` slots; halving steps then narrow it,
    /// each a conditional move, entered at the step for `p` (which depends on the count
    /// alone). Written as a loop, the compiler turned the step into a branch that mispredicted
    /// half the time on random keys; counting every slot in vector registers instead cost
    /// about 200 instructions a node. The slots' lines were asked for with the node's header,
    /// so the dependent reads hit the cache.
    @inline(__always) private func hintRank(_ hint: UInt32) -> Int {
        let used = count
        guard used > 0 else { return 0 }
        var window = 1 &<< (Int.bitWidth &- 1 &- used.leadingZeroBitCount)
        // The answer lies in start...start + window.
        var start = self.hint(at: window &- 1) < hint ? used &- window : 0
        // Nodes hold at most 1,024 keys; a larger window would narrow here first.
        while window > 1024 {
            window &>>= 1
            step(&start, window, hint)
        }
        switch window {
        case 1024: step(&start, 512, hint); fallthrough
        case 512: step(&start, 256, hint); fallthrough
        case 256: step(&start, 128, hint); fallthrough
        case 128: step(&start, 64, hint); fallthrough
        case 64: step(&start, 32, hint); fallthrough
        case 32: step(&start, 16, hint); fallthrough
        case 16: step(&start, 8, hint); fallthrough
        case 8: step(&start, 4, hint); fallthrough
        case 4: step(&start, 2, hint); fallthrough
        case 2: step(&start, 1, hint); fallthrough
        default: break
        }
        // The window is start...start + 1; slot `start` exists (start < count) and decides.
        return start &+ (self.hint(at: start) < hint ? 1 : 0)
    }

    /// One halving of ``hintRank(_:)``'s window start...start + 2 × half: its upper half when
    /// the slot before it holds a hint below `hint`.
    @inline(__always) private func step(_ start: inout Int, _ half: Int, _ hint: UInt32) {
        start = self.hint(at: start &+ half &- 1) < hint ? start &+ half : start
    }

    /// Where `probe`'s search in this leaf reads keys from: the first slot whose hint is not
    /// below the probe's (read from the slots alone).
    @inline(__always) func candidate(for probe: UnsafeRawBufferPointer) -> Int {
        hintRank(Self.hint(of: probe, prefixLength: prefixLength))
    }

    /// The index of `probe` in this leaf, or `nil`, searching from the candidate that
    /// ``candidate(for:)`` gave. Needs no prefix check: a probe without the prefix gets some
    /// position whose full comparison then fails.
    @inline(__always) func index(of probe: UnsafeRawBufferPointer, from candidate: Int) -> Int? {
        index(of: probe, from: candidate, hintDecides: hintHoldsWholeSuffix(of: probe))
    }

    /// ``index(of:from:)`` with ``hintHoldsWholeSuffix(of:)`` already known (a lookup that
    /// decided its prefetches by it asks once).
    @inline(__always) func index(of probe: UnsafeRawBufferPointer, from candidate: Int, hintDecides: Bool) -> Int? {
        let used = count
        let hint = Self.hint(of: probe, prefixLength: prefixLength)
        var i = candidate
        if hintDecides {
            // Equal hints mean the keys differ at most by trailing zero bytes, so lengths
            // alone order them: the arena is never read (the usual case for fixed-length keys).
            while i < used && self.hint(at: i) == hint {
                let length = end(at: i) - start(at: i)
                if length == probe.count { return i }
                if length > probe.count { return nil }
                i += 1
            }
            return nil
        }
        while i < used && self.hint(at: i) == hint {
            let order = compare(probe, withKeyAt: i)
            if order == 0 { return i }
            if order < 0 { return nil }
            i += 1
        }
        return nil
    }

    /// Whether `probe` starts with the node's prefix (checked against the header's prefix head
    /// alone) and has at most 4 bytes after it, so that its hint holds all of its remaining
    /// bytes. Then a key with an equal hint is the probe padded with zero bytes, or the probe
    /// followed by more bytes: equal exactly when the lengths are.
    @inline(__always) func hintHoldsWholeSuffix(of probe: UnsafeRawBufferPointer) -> Bool {
        let length = prefixLength
        return probe.count <= length + 4 && length <= 16 && prefixOrder(probe) == 0
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
