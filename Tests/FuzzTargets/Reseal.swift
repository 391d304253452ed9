// Checksums recomputed over fuzzed file bytes, so that inputs reach the checks behind them
// (docs/format/*.md name each checksum's offset and coverage).

import StockpotCore
import StockpotStorage

/// Rewrites the checksums of a fuzzed file so that its other fields are what a decoder judges.
///
/// Random bytes almost never carry a matching XXH3-64, so without this a fuzzer would only
/// ever exercise the checksum comparison. Each storage target decodes the input as it is and
/// once more resealed.
enum Reseal {
    /// Stores at `offset` the XXH3-64 of `bytes[covered]`, when both fit.
    static func checksum(_ bytes: inout [UInt8], covering covered: Range<Int>, at offset: Int) {
        guard covered.lowerBound >= 0, covered.upperBound <= bytes.count, offset >= 0, offset + 8 <= bytes.count
        else { return }
        let sum = bytes.withUnsafeBytes { Checksum.xxh3($0, covered) }
        for index in 0..<8 { bytes[offset + index] = UInt8(truncatingIfNeeded: sum >> (8 * UInt64(index))) }
    }

    /// A file whose last eight bytes are the checksum of everything before them (hint,
    /// manifest, snapshot trailer).
    static func trailer(_ bytes: [UInt8]) -> [UInt8] {
        var copy = bytes
        if copy.count >= 8 { checksum(&copy, covering: 0..<(copy.count - 8), at: copy.count - 8) }
        return copy
    }

    /// A segment: the header checksum, then each record's, as far as the frame lengths chain.
    static func segment(_ bytes: [UInt8]) -> [UInt8] {
        var copy = bytes
        // A version-1 header is 32 bytes with its checksum at 24; version 2 is 48 with it at 40.
        let headerSize = copy.withUnsafeBytes { SegmentFormat.announcedHeaderSize($0) } ?? SegmentFormat.headerSize
        checksum(&copy, covering: 0..<(headerSize - 8), at: headerSize - 8)
        var offset = headerSize
        while offset + 4 <= copy.count {
            let frame = Int(copy[offset]) | Int(copy[offset + 1]) << 8 | Int(copy[offset + 2]) << 16 | Int(copy[offset + 3]) << 24
            guard frame >= RecordCodec.minimumFrameLength, offset + 4 + frame <= copy.count else { break }
            checksum(&copy, covering: offset..<(offset + frame - 4), at: offset + frame - 4)
            offset += 4 + frame
        }
        return copy
    }

    /// A little-endian u64 of `bytes` at `offset`, or nil past the end.
    static func uint64(_ bytes: [UInt8], at offset: Int) -> UInt64? {
        guard offset >= 0, offset + 8 <= bytes.count else { return nil }
        var value: UInt64 = 0
        for index in (0..<8).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }
}
