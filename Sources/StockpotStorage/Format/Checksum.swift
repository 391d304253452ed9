// XXH3-64 (seed 0) over byte buffers: the checksum of every Stockpot file and record.
// Formats: docs/format/segment.md (and every other document in docs/format).

import CXXHash

/// The checksum every on-disk format uses: XXH3-64 with seed 0 (`XXH3_64bits`).
///
/// Stateless and safe to call from any thread.
package enum Checksum {
    /// Returns the XXH3-64 of `bytes`.
    ///
    /// - Complexity: O(n) in the number of bytes.
    package static func xxh3(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        XXH3_64bits(bytes.baseAddress, bytes.count)
    }

    /// Returns the XXH3-64 of `bytes`.
    ///
    /// - Complexity: O(n) in the number of bytes.
    package static func xxh3(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { xxh3($0) }
    }

    /// Returns the XXH3-64 of `bytes[range]`; `range` must lie inside `bytes` (a programmer error
    /// otherwise).
    package static func xxh3(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> UInt64 {
        xxh3(UnsafeRawBufferPointer(rebasing: bytes[range]))
    }
}
