// Sixteen-bytes-at-a-time searches for the bytes that end a run of plain string content.
// SIMD16<UInt8> compiles to SSE2 compares here (about one instruction per byte), and the
// position of the first hit comes from the compare mask, so short strings need no byte loop.

enum ByteScan {
    /// The offset of the first `"`, `\` or byte below 0x20 in `start..<end` (or `end`), and
    /// whether any byte before it is 0x80 or above (not ASCII).
    @inline(__always)
    static func firstQuoteBackslashOrControl(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int
    ) -> (offset: Int, sawNonASCII: Bool) {
        // Constants are locals: as statics they cost a lazy-initialization check per call.
        let quote = SIMD16<UInt8>(repeating: 0x22)
        let backslash = SIMD16<UInt8>(repeating: 0x5C)
        let space = SIMD16<UInt8>(repeating: 0x20)
        let highBit = SIMD16<UInt8>(repeating: 0x80)
        var i = start
        var sawNonASCII = false
        while i + 16 <= end {
            let bytes = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD16<UInt8>.self)
            let stops = lanes((bytes .== quote) .| (bytes .== backslash) .| (bytes .< space))
            let highs = lanes(bytes .>= highBit)
            guard let hit = firstSetLane(stops) else {
                sawNonASCII = sawNonASCII || highs.0 | highs.1 != 0
                i += 16
                continue
            }
            sawNonASCII = sawNonASCII || anyLaneBefore(hit, highs)
            return (i + hit, sawNonASCII)
        }
        while i < end {
            let byte = base[i]
            if byte == 0x22 || byte == 0x5C || byte < 0x20 { break }
            if byte >= 0x80 { sawNonASCII = true }
            i += 1
        }
        return (i, sawNonASCII)
    }

    /// The offset of the first `"` or `\` in `start..<end`, or `end`.
    @inline(__always)
    static func firstQuoteOrBackslash(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        let quote = SIMD16<UInt8>(repeating: 0x22)
        let backslash = SIMD16<UInt8>(repeating: 0x5C)
        var i = start
        while i + 16 <= end {
            let bytes = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD16<UInt8>.self)
            if let hit = firstSetLane(lanes((bytes .== quote) .| (bytes .== backslash))) {
                return i + hit
            }
            i += 16
        }
        while i < end {
            let byte = base[i]
            if byte == 0x22 || byte == 0x5C { break }
            i += 1
        }
        return i
    }

    /// The sixteen mask bytes (0x00 or 0xFF each) as two little-endian words, lanes 0-7 and
    /// 8-15. (The standard library's `any` reduces through a generic call here.)
    @inline(__always)
    private static func lanes(_ mask: SIMDMask<SIMD16<Int8>>) -> (UInt64, UInt64) {
        let words = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        return (words[0].littleEndian, words[1].littleEndian)
    }

    @inline(__always)
    private static func firstSetLane(_ mask: (UInt64, UInt64)) -> Int? {
        if mask.0 != 0 { return mask.0.trailingZeroBitCount >> 3 }
        if mask.1 != 0 { return 8 + mask.1.trailingZeroBitCount >> 3 }
        return nil
    }

    /// Whether any lane below `lane` (0...15) is set.
    @inline(__always)
    private static func anyLaneBefore(_ lane: Int, _ mask: (UInt64, UInt64)) -> Bool {
        if lane <= 8 {
            return lane > 0 && mask.0 & (UInt64.max >> (64 - 8 * lane)) != 0
        }
        return mask.0 != 0 || mask.1 & (UInt64.max >> (64 - 8 * (lane - 8))) != 0
    }
}
