// The constants and the line checksum of dump files (docs/format/dump.md), shared by the
// writer (`stockpot dump`) and the reader (`stockpot restore`).

import StockpotCore
import StockpotStorage

/// Dump file constants. Format: docs/format/dump.md.
package enum DumpFormat {
    /// The header's `format` value.
    package static let formatName = "stockpot-dump"
    /// The format version this code writes; it reads this one and version 1.
    package static let version: Int64 = 2
    /// The multiplier of the line checksum.
    static let checksumMultiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The start of every entry line as the writer emits it (the reader's fast path).
    static let entryPrefix = Array(#"{"id":"#.utf8)
    static let createdInfix = Array(#","created":"#.utf8)
    static let lastModifiedInfix = Array(#","lastModified":"#.utf8)
    static let sequenceInfix = Array(#","seq":"#.utf8)
    static let documentInfix = Array(#","doc":"#.utf8)
}

/// The running checksum of a dump's lines: `h = h * M + XXH3-64(line)`, wrapping.
package struct DumpChecksum: Sendable {
    /// The checksum so far.
    package private(set) var value: UInt64 = 0

    /// Starts at zero.
    package init() {}

    /// Adds one line (without its newline).
    package mutating func add(_ line: UnsafeRawBufferPointer) {
        value = value &* DumpFormat.checksumMultiplier &+ Checksum.xxh3(line)
    }

    /// Adds one line (without its newline).
    package mutating func add(_ line: [UInt8]) {
        line.withUnsafeBytes { add($0) }
    }

    /// The value as 16 lowercase hex digits.
    package var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

extension Array where Element == UInt8 {
    /// Appends the decimal digits of `value`.
    mutating func appendDecimal(_ value: Int64) {
        if value < 0 {
            append(UInt8(ascii: "-"))
            appendDecimal(value.magnitude)
        } else {
            appendDecimal(value.magnitude)
        }
    }

    private mutating func appendDecimal(_ magnitude: UInt64) {
        var digits: (UInt64, Int) = (magnitude, 0)
        var buffer = [UInt8](repeating: 0, count: 20)
        repeat {
            buffer[19 - digits.1] = UInt8(ascii: "0") + UInt8(digits.0 % 10)
            digits.0 /= 10
            digits.1 += 1
        } while digits.0 > 0
        append(contentsOf: buffer[(20 - digits.1)...])
    }
}
