// A dictionary loaded into an LZ4 stream once, copied into a fresh stream for each record, so
// records compress against it without rehashing 64 KiB each time. Format: docs/format/dictionary.md.

import CLZ4

/// An LZ4 dictionary prepared for repeated compression.
///
/// `LZ4_loadDict` hashes the whole dictionary (tens of microseconds for 64 KiB); lz4.h names
/// copying a loaded `LZ4_stream_t` as the way to reuse that work. Immutable after `init`, so
/// any number of threads may compress against one instance at once.
package final class LZ4Dictionary: @unchecked Sendable {  // unchecked: owns immutable raw memory
    /// The dictionary bytes (a private copy at a fixed address, as LZ4 requires).
    private let content: UnsafeMutableRawBufferPointer
    /// A stream with `content` loaded, never compressed with: only copied.
    private let loaded: UnsafeMutablePointer<LZ4_stream_t>

    /// Loads `content` (LZ4 uses at most its last 64 KiB).
    ///
    /// - Complexity: O(n) in the dictionary's length.
    package init(_ content: [UInt8]) {
        self.content = UnsafeMutableRawBufferPointer.allocate(byteCount: max(content.count, 1), alignment: 16)
        self.content.copyBytes(from: content)
        loaded = .allocate(capacity: 1)
        _ = LZ4_initStream(loaded, MemoryLayout<LZ4_stream_t>.size)
        // LZ4 keeps only the last 64 KiB of a dictionary; passing just those is the same load.
        let used = min(content.count, 65_536)
        if used > 0, let start = self.content.baseAddress {
            LZ4_loadDict(
                loaded, (start + (content.count - used)).assumingMemoryBound(to: CChar.self), Int32(used))
        }
        count = content.count
    }

    deinit {
        loaded.deallocate()
        content.deallocate()
    }

    /// The dictionary's length in bytes.
    package let count: Int

    /// The dictionary bytes, for decompression; valid while `self` is alive.
    package var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(content)[0..<count])
    }

    /// Calls `body` with a fresh stream holding this dictionary; the stream is valid only in `body`.
    func withLoadedStream<R>(_ body: (UnsafeMutablePointer<LZ4_stream_t>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: LZ4_stream_t.self, capacity: 1) { stream in
            let working = stream.baseAddress!
            working.initialize(from: loaded, count: 1)
            return withExtendedLifetime(self) { body(working) }
        }
    }
}
