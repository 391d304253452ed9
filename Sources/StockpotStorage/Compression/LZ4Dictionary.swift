// A dictionary loaded into an LZ4 stream once, copied into a fresh stream for each record, so
// records compress against it without rehashing 64 KiB each time. Format: docs/format/dictionary.md.

import CLZ4
import Synchronization

/// An LZ4 dictionary prepared for repeated compression and decompression.
///
/// `LZ4_loadDict` hashes the whole dictionary (tens of microseconds for 64 KiB); lz4.h names
/// copying a loaded `LZ4_stream_t` as the way to reuse that work. Immutable after `init` apart
/// from its pool of decompression buffers (behind a lock), so any number of threads may
/// compress and decompress against one instance at once.
///
/// Decompression goes through a buffer that holds the dictionary's bytes right before the room
/// for the value: LZ4 then decodes in prefix mode, where a match into the dictionary is copied
/// like any other, instead of the external-dictionary mode that checks every match and copies
/// dictionary matches with `memcpy` (a 1 KB document decodes in about 0.6 us instead of 0.9-1.3
/// here). The value is then copied out; the buffers are pooled, so the dictionary is copied
/// into a buffer once, not per value.
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
        for address in scratchPool.withLock({ $0 }) + [spareScratch.load(ordering: .acquiring)] {
            UnsafeMutableRawPointer(bitPattern: address)?.deallocate()
        }
    }

    /// Values up to this many bytes decompress through a pooled buffer (prefix mode); longer
    /// ones straight into their output (external-dictionary mode), where the copy would cost
    /// more than the mode saves.
    static let scratchValueCapacity = 64 * 1024
    /// Buffers kept for reuse; more are made when more threads decompress at once, and freed.
    static let scratchPoolLimit = 8
    /// Free decompression buffers, as addresses: the dictionary's last `prefixLength` bytes,
    /// then `scratchValueCapacity` bytes of room.
    private let scratchPool = Mutex<[UInt]>([])
    /// One free buffer's address (0 for none), taken and given back with one atomic exchange
    /// each: a thread reading alone never takes the pool's lock.
    private let spareScratch = Atomic<UInt>(0)

    /// The dictionary bytes LZ4 can reach: the last 64 KiB.
    private var prefixLength: Int { min(count, 65_536) }

    /// Decompresses `input` (compressed against this dictionary) into a new array; nil when it
    /// does not decode to exactly `originalLength` bytes. Never reads or writes outside its
    /// buffers, whatever `input` holds.
    ///
    /// A value that decodes in a pooled buffer is copied out into an array made by
    /// `reserveCapacity` and `append`, whose allocation the standard library has specialized
    /// for bytes; `Array(unsafeUninitializedCapacity:)` looks the array's storage type up
    /// generically on every call, which costs about as much as the copy.
    package func decompressed(_ input: UnsafeRawBufferPointer, originalLength: Int) -> [UInt8]? {
        guard let source = input.baseAddress, originalLength >= 1, input.count <= Int(Int32.max) else { return nil }
        guard originalLength <= Self.scratchValueCapacity, prefixLength > 0 else {
            return LZ4Codec.decompress(input, originalLength: originalLength, dictionary: bytes)
        }
        return decodedInScratch(source, input.count, originalLength: originalLength) { decoded in
            var output = [UInt8]()
            output.reserveCapacity(originalLength)
            output.append(contentsOf: decoded)
            return output
        }
    }

    /// Decompresses `input` (compressed against this dictionary) onto the end of `output`;
    /// false, with `output` as it was, when it does not decode to exactly `originalLength`
    /// bytes. The same checks and modes as ``decompressed(_:originalLength:)``, for callers
    /// that lay several values back to back in one buffer.
    package func decompress(_ input: UnsafeRawBufferPointer, originalLength: Int, appendingTo output: inout [UInt8]) -> Bool {
        guard let source = input.baseAddress, originalLength >= 1, input.count <= Int(Int32.max) else { return false }
        guard originalLength <= Self.scratchValueCapacity, prefixLength > 0 else {
            let start = output.count
            output.append(contentsOf: repeatElement(0, count: originalLength))
            let decoded = output.withUnsafeMutableBytes { buffer in
                LZ4Codec.decompress(
                    input, originalLength: originalLength, dictionary: bytes,
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[start...]))
            }
            if !decoded { output.removeLast(originalLength) }
            return decoded
        }
        return decodedInScratch(source, input.count, originalLength: originalLength) { decoded in
            output.append(contentsOf: decoded)
        } != nil
    }

    /// Decodes `input` (`inputCount` bytes at `source`) in a scratch buffer right after the
    /// dictionary's prefix (LZ4's prefix mode) and hands `body` the decoded bytes, valid only
    /// inside it; nil when they are not exactly `originalLength` bytes.
    @inline(__always)
    private func decodedInScratch<R>(
        _ source: UnsafeRawPointer, _ inputCount: Int, originalLength: Int, _ body: (UnsafeRawBufferPointer) -> R
    ) -> R? {
        let scratch = takeScratch()
        defer { returnScratch(scratch) }
        let prefix = prefixLength
        let decoded = LZ4_decompress_safe_usingDict(
            source.assumingMemoryBound(to: CChar.self), (scratch + prefix).assumingMemoryBound(to: CChar.self),
            Int32(inputCount), Int32(originalLength), scratch.assumingMemoryBound(to: CChar.self), Int32(prefix))
        guard Int(decoded) == originalLength else { return nil }
        return body(UnsafeRawBufferPointer(start: scratch + prefix, count: originalLength))
    }

    private func takeScratch() -> UnsafeMutableRawPointer {
        if let spare = UnsafeMutableRawPointer(bitPattern: spareScratch.exchange(0, ordering: .acquiring)) {
            return spare
        }
        if let address = scratchPool.withLock({ $0.popLast() }), let scratch = UnsafeMutableRawPointer(bitPattern: address) {
            return scratch
        }
        let prefix = prefixLength
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: prefix + Self.scratchValueCapacity, alignment: 16)
        if let start = content.baseAddress {
            scratch.copyMemory(from: start + (count - prefix), byteCount: prefix)
        }
        return scratch
    }

    private func returnScratch(_ scratch: UnsafeMutableRawPointer) {
        if spareScratch.compareExchange(expected: 0, desired: UInt(bitPattern: scratch), ordering: .releasing).exchanged {
            return
        }
        let kept = scratchPool.withLock { pool in
            guard pool.count < Self.scratchPoolLimit else { return false }
            pool.append(UInt(bitPattern: scratch))
            return true
        }
        if !kept { scratch.deallocate() }
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
