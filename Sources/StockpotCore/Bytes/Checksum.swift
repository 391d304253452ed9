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
        #if arch(x86_64)
            // The library picks the widest vector unit at run time (the plain entry point is
            // built for SSE2): the same hash, about half the instructions on an AVX2 CPU for a
            // record of a few hundred bytes.
            XXH3_64bits_dispatch(bytes.baseAddress, bytes.count)
        #else
            XXH3_64bits(bytes.baseAddress, bytes.count)
        #endif
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
