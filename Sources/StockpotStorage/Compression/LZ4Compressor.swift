// An LZ4 compression stream reused for many independent blocks (docs/format/segment.md,
// "Compression"): a block against a prepared dictionary starts from a copy of its loaded
// stream; a block without one from a fast reset of this stream. Writers keep a few in a pool.

import CLZ4
import StockpotCore
import Synchronization

/// One LZ4 stream reused for many independent blocks, writing each block straight into the
/// array returned (no zero-filled scratch buffer).
///
/// lz4's attach-dictionary mode (which avoids the 16 KiB copy of the loaded stream) was tried
/// and measured slower on this corpus: its two-table match search costs more than the copy
/// (measured with the benchmark's storage workloads). Not thread-safe: one thread uses an instance at
/// a time (take it from the pool with ``withPooled(_:)``).
final class LZ4Compressor: @unchecked Sendable {  // unchecked: used by one thread at a time, via the pool
    private let stream: UnsafeMutablePointer<LZ4_stream_t>

    init() {
        stream = .allocate(capacity: 1)
        _ = LZ4_initStream(stream, MemoryLayout<LZ4_stream_t>.size)
    }

    deinit {
        stream.deallocate()
    }

    /// Streams kept for reuse; a handful at most (one per thread compressing at once).
    private static let idle = Mutex<[LZ4Compressor]>([])

    /// Runs `body` with a compressor from the pool (a new one when none is idle).
    static func withPooled<R>(_ body: (LZ4Compressor) -> R) -> R {
        let compressor = idle.withLock { $0.popLast() } ?? LZ4Compressor()
        defer { idle.withLock { if $0.count < 8 { $0.append(compressor) } } }
        return body(compressor)
    }

    /// The LZ4 block of `input` against `dictionary` (none when nil), or nil when the block
    /// would not save at least 1/16 of the input (the rule of
    /// ``LZ4Codec/compress(_:dictionary:appendingTo:)``) or the input is empty or too long.
    ///
    /// - Complexity: O(n), plus a 16 KiB copy of the prepared stream with a dictionary.
    func compress(_ input: UnsafeRawBufferPointer, dictionary: LZ4Dictionary?) -> [UInt8]? {
        let length = input.count
        guard length > 0, length <= LZ4Codec.maximumInputLength, let source = input.baseAddress else { return nil }
        let capacity = length - (length + 15) / 16
        guard capacity > 0 else { return nil }
        var written = 0
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            let destination = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            func compress(with stream: UnsafeMutablePointer<LZ4_stream_t>) -> Int {
                Int(
                    LZ4_compress_fast_continue(
                        stream, source.assumingMemoryBound(to: CChar.self), destination, Int32(length),
                        Int32(capacity), 1))
            }
            if let dictionary {
                written = dictionary.withLoadedStream { compress(with: $0) }
            } else {
                LZ4_resetStream_fast(stream)
                written = compress(with: stream)
            }
            count = written > 0 && written <= capacity ? written : 0
        }
        // The output was allocated for the worst case the rule allows: a batch holds its
        // compressed values until they are written, so each keeps only its own bytes.
        return written > 0 && written <= capacity ? output.exactSize() : nil
    }
}
