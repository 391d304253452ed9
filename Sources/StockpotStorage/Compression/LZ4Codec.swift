// LZ4 block compression against an optional dictionary, one fresh stream per call, so every
// block decodes alone. Formats: docs/format/segment.md ("Compression"), snapshot.md, dictionary.md.

import CLZ4

/// Compresses and decompresses single LZ4 blocks. Stateless; safe from any thread (each call
/// uses its own stream state).
package enum LZ4Codec {
    /// The largest input LZ4 compresses in one block (`LZ4_MAX_INPUT_SIZE`).
    package static let maximumInputLength = 0x7E00_0000

    /// Compresses `input` as one block against `dictionary`, appending the block to `output`.
    ///
    /// Nothing is appended unless the block saves at least 1/16 of the input (`16 * (n - c) >= n`).
    ///
    /// - Parameters:
    ///   - input: the bytes to compress.
    ///   - dictionary: the dictionary (empty for none); LZ4 uses at most its last 64 KiB.
    ///   - output: the buffer the block is appended to.
    /// - Returns: the number of bytes appended, or nil when the input is empty, over
    ///   ``maximumInputLength``, or does not compress enough.
    /// - Complexity: O(n + dictionary length).
    package static func compress(
        _ input: UnsafeRawBufferPointer, dictionary: UnsafeRawBufferPointer,
        appendingTo output: inout [UInt8]
    ) -> Int? {
        guard dictionary.count <= Int(Int32.max) else { return nil }
        return withUnsafeTemporaryAllocation(of: LZ4_stream_t.self, capacity: 1) { state in
            guard let stream = LZ4_initStream(state.baseAddress, MemoryLayout<LZ4_stream_t>.size) else {
                return nil
            }
            if let start = dictionary.baseAddress, dictionary.count > 0 {
                LZ4_loadDict(stream, start.assumingMemoryBound(to: CChar.self), Int32(dictionary.count))
            }
            return compress(input, stream: stream, appendingTo: &output)
        }
    }

    /// Compresses `input` as one block against a prepared dictionary; the same contract as
    /// ``compress(_:dictionary:appendingTo:)`` and the same bytes, without rehashing the
    /// dictionary.
    ///
    /// - Complexity: O(n) plus a 16 KiB copy of the prepared stream.
    package static func compress(
        _ input: UnsafeRawBufferPointer, dictionary: LZ4Dictionary, appendingTo output: inout [UInt8]
    ) -> Int? {
        dictionary.withLoadedStream { compress(input, stream: $0, appendingTo: &output) }
    }

    /// Compresses `input` with `stream` (initialized, its dictionary loaded and alive).
    private static func compress(
        _ input: UnsafeRawBufferPointer, stream: UnsafeMutablePointer<LZ4_stream_t>,
        appendingTo output: inout [UInt8]
    ) -> Int? {
        let length = input.count
        guard length > 0, length <= maximumInputLength, let source = input.baseAddress else { return nil }
        let capacity = length - (length + 15) / 16
        guard capacity > 0 else { return nil }
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: capacity))
        let written = output.withUnsafeMutableBytes { buffer -> Int in
            guard let destination = buffer.baseAddress else { return 0 }
            return Int(
                LZ4_compress_fast_continue(
                    stream, source.assumingMemoryBound(to: CChar.self),
                    (destination + start).assumingMemoryBound(to: CChar.self), Int32(length),
                    Int32(capacity), 1))
        }
        guard written > 0, written <= capacity else {
            output.removeLast(capacity)
            return nil
        }
        output.removeLast(capacity - written)
        return written
    }

    /// Decompresses the block `input` into the first `originalLength` bytes of `output`.
    ///
    /// - Parameters:
    ///   - input: one LZ4 block.
    ///   - originalLength: the exact length the block must decode to (at least 1).
    ///   - dictionary: the dictionary it was compressed against (empty for none).
    ///   - output: where the bytes go; at least `originalLength` bytes.
    /// - Returns: true when the block decoded to exactly `originalLength` bytes; false on any
    ///   malformed block, length mismatch or bad argument. Never traps on any input bytes.
    /// - Complexity: O(originalLength).
    package static func decompress(
        _ input: UnsafeRawBufferPointer, originalLength: Int, dictionary: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) -> Bool {
        guard let source = input.baseAddress, let destination = output.baseAddress,
            originalLength >= 1, originalLength <= output.count,
            originalLength <= Int(Int32.max), input.count <= Int(Int32.max),
            dictionary.count <= Int(Int32.max)
        else { return false }
        let decoded = LZ4_decompress_safe_usingDict(
            source.assumingMemoryBound(to: CChar.self),
            destination.assumingMemoryBound(to: CChar.self), Int32(input.count),
            Int32(originalLength), dictionary.baseAddress?.assumingMemoryBound(to: CChar.self),
            Int32(dictionary.count))
        return Int(decoded) == originalLength
    }

    /// Decompresses `input` into a new array of `originalLength` bytes, or returns nil when it
    /// does not decode to exactly that many.
    package static func decompress(
        _ input: UnsafeRawBufferPointer, originalLength: Int, dictionary: UnsafeRawBufferPointer
    ) -> [UInt8]? {
        guard originalLength >= 1, originalLength <= Int(Int32.max) else { return nil }
        var succeeded = false
        let output = [UInt8](unsafeUninitializedCapacity: originalLength) { buffer, count in
            succeeded = decompress(
                input, originalLength: originalLength, dictionary: dictionary,
                into: UnsafeMutableRawBufferPointer(buffer))
            count = succeeded ? originalLength : 0
        }
        return succeeded ? output : nil
    }
}
