// Sixteen-bytes-at-a-time searches for the bytes that end a run of plain string content.
// SIMD16<UInt8> compiles to SSE2 compares here (about one instruction per byte).

enum ByteScan {
    private static let quote = SIMD16<UInt8>(repeating: 0x22)
    private static let backslash = SIMD16<UInt8>(repeating: 0x5C)
    private static let space = SIMD16<UInt8>(repeating: 0x20)
    private static let highBit = SIMD16<UInt8>(repeating: 0x80)

    /// The offset of the first `"`, `\` or byte below 0x20 in `start..<end` (or `end`), and
    /// whether any byte before it is 0x80 or above (not ASCII).
    @inline(__always)
    static func firstQuoteBackslashOrControl(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int
    ) -> (offset: Int, sawNonASCII: Bool) {
        var i = start
        var high = SIMD16<UInt8>(repeating: 0)
        while i + 16 <= end {
            let bytes = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD16<UInt8>.self)
            if any((bytes .== quote) .| (bytes .== backslash) .| (bytes .< space)) { break }
            high |= bytes
            i += 16
        }
        var sawNonASCII = any(high .>= highBit)
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
        var i = start
        while i + 16 <= end {
            let bytes = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD16<UInt8>.self)
            if any((bytes .== quote) .| (bytes .== backslash)) { break }
            i += 16
        }
        while i < end {
            let byte = base[i]
            if byte == 0x22 || byte == 0x5C { break }
            i += 1
        }
        return i
    }
}
