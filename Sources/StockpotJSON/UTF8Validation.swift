// Well-formed UTF-8 per the Unicode standard (Table 3-7): no overlongs, no surrogates,
// nothing past U+10FFFF. Used to find the exact offset of a bad byte.

enum UTF8Validation {
    /// The length of the well-formed sequence starting at `offset`, or 0 when it is ill-formed.
    static func sequenceLength(at offset: Int, _ base: UnsafePointer<UInt8>, _ count: Int) -> Int {
        let lead = base[offset]
        if lead < 0x80 { return 1 }
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        guard offset + length <= count else { return 0 }
        let second = base[offset + 1]
        guard second >= low && second <= high else { return 0 }
        for i in 2..<length where base[offset + i] & 0xC0 != 0x80 { return 0 }
        return length
    }

    static func isWellFormedSequence(
        at offset: Int, _ base: UnsafePointer<UInt8>, _ count: Int
    ) -> Bool {
        sequenceLength(at: offset, base, count) != 0
    }

    /// The offset of the first ill-formed byte in `start..<end`, or `nil` when all is well.
    static func firstInvalidOffset(
        from start: Int, to end: Int, _ base: UnsafePointer<UInt8>
    ) -> Int? {
        var offset = start
        while offset < end {
            let length = sequenceLength(at: offset, base, end)
            if length == 0 { return offset }
            offset += length
        }
        return nil
    }
}

extension UTF8Validation {
    /// The same answer as ``firstInvalidOffset(from:to:_:)``, stepping over ASCII eight bytes
    /// at a time: for text that is mostly ASCII with a few other letters.
    static func firstInvalidOffsetSkippingASCII(
        from start: Int, to end: Int, _ base: UnsafePointer<UInt8>
    ) -> Int? {
        var offset = start
        while offset < end {
            if offset + 8 <= end,
                UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                offset += 8
                continue
            }
            let length = sequenceLength(at: offset, base, end)
            if length == 0 { return offset }
            offset += length
        }
        return nil
    }
}
