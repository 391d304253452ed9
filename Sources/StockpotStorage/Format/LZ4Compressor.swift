// A reusable LZ4 compression stream: each block is compressed on its own against an optional
// prepared dictionary (docs/format/segment.md, "Compression"), without setting up a 16 KiB
// stream per block. Writers keep a few in a pool.

import CLZ4
import Synchronization

/// One LZ4 stream reused for many independent blocks.
///
/// The dictionary is attached to the stream rather than copied into it (lz4's
/// attach-dictionary mode), so a block costs its own compression only; when the loaded liblz4
/// is not the version the stream layout was compiled against, the prepared stream is copied
/// instead (``LZ4Codec/compress(_:dictionary:appendingTo:)``), with the same result for a
/// reader. Not thread-safe: one thread uses an instance at a time (take it from ``pool``).
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
    /// - Complexity: O(n); no per-call set-up beyond a table reset lz4 makes lazily.
    func compress(_ input: UnsafeRawBufferPointer, dictionary: LZ4Dictionary?) -> [UInt8]? {
        let length = input.count
        guard length > 0, length <= LZ4Codec.maximumInputLength, let source = input.baseAddress else { return nil }
        let capacity = length - (length + 15) / 16
        guard capacity > 0 else { return nil }
        if let dictionary {
            let attached = withExtendedLifetime(dictionary) {
                stockpot_lz4_attach_dictionary(stream, dictionary.loadedStream) != 0
            }
            guard attached else {
                var output: [UInt8] = []
                return LZ4Codec.compress(input, dictionary: dictionary, appendingTo: &output) == nil ? nil : output
            }
        } else {
            stockpot_lz4_reset(stream)
        }
        var written = 0
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            // The dictionary stays alive: the caller holds it for the whole call.
            written = withExtendedLifetime(dictionary) {
                Int(
                    LZ4_compress_fast_continue(
                        stream, source.assumingMemoryBound(to: CChar.self),
                        UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self),
                        Int32(length), Int32(capacity), 1))
            }
            count = written > 0 && written <= capacity ? written : 0
        }
        return written > 0 && written <= capacity ? output : nil
    }
}
