// Encodes and decodes one segment record: frame length, fixed fields, key, value, checksum.
// Format: docs/format/segment.md ("Record", "Reading, corruption and recovery").

import StockpotCore

/// Writes and reads segment records in memory.
///
/// A record is `frame-length(u32) tag flags dictionary(u16) sequence(u64) K(u32) V(u32)
/// original(u32) key value checksum(u64)`, little-endian, `36 + K + V` bytes. Stateless; safe
/// from any thread.
package enum RecordCodec {
    /// The bytes a record adds to its key and stored value: 28 of fields, 8 of checksum.
    package static let overhead = 36
    /// The bytes of the fixed fields, frame length included.
    package static let fieldsSize = 28
    /// The frame length minus K and V: 24 bytes of fields after the frame length, 8 of checksum.
    static let frameFixedSize = 32
    /// The smallest valid frame length (a one-byte key, no value).
    package static let minimumFrameLength = 33
    /// The longest key a record holds.
    package static let maximumKeyLength = 65_535

    /// Appends one record for `key` and `storedValue` to `output`.
    ///
    /// The header's key and stored lengths are taken from the buffers; its original length is
    /// used only when the compressed flag is set (otherwise it is the stored length).
    ///
    /// - Parameters:
    ///   - header: tag, flags, dictionary, sequence, and the original length of a compressed value.
    ///   - key: 1 ... 65,535 key bytes.
    ///   - storedValue: the value as stored (the LZ4 block when compressed; the encoded blob
    ///     reference for put-blob; empty for delete).
    ///   - output: the buffer the record is appended to.
    /// - Returns: the header as written, lengths filled in.
    /// - Precondition: the record follows segment.md's rules (key length, a delete has no value,
    ///   a put-blob value is 24 bytes, only puts are compressed, a compressed value is shorter
    ///   than its original, an uncompressed record names no dictionary). A violation is a
    ///   programmer error: the caller checks user limits first.
    /// - Complexity: O(K + V).
    @discardableResult
    package static func append(
        _ header: RecordHeader, key: UnsafeRawBufferPointer, storedValue: UnsafeRawBufferPointer,
        to output: inout [UInt8]
    ) -> RecordHeader {
        var written = header
        written.keyLength = key.count
        written.storedLength = storedValue.count
        if !header.flags.contains(.compressed) { written.originalLength = storedValue.count }
        if let problem = RecordHeader.shapeProblem(
            tag: written.tag, flags: written.flags, dictionaryID: written.dictionaryID,
            keyLength: written.keyLength, storedLength: written.storedLength,
            originalLength: written.originalLength)
        {
            preconditionFailure(problem)
        }
        let start = output.count
        output.reserveCapacity(start + written.recordLength)
        output.appendUInt32LE(UInt32(frameFixedSize + key.count + storedValue.count))
        output.appendUInt8(written.tag.rawValue)
        output.appendUInt8(written.flags.rawValue)
        output.appendUInt16LE(written.dictionaryID)
        output.appendUInt64LE(written.sequence)
        output.appendUInt32LE(UInt32(key.count))
        output.appendUInt32LE(UInt32(storedValue.count))
        output.appendUInt32LE(UInt32(written.originalLength))
        output.appendBytes(key)
        output.appendBytes(storedValue)
        let checksum = output.withUnsafeBytes { Checksum.xxh3($0, start..<$0.count) }
        output.appendUInt64LE(checksum)
        return written
    }

    /// What `decode` found at an offset.
    package enum Decoded: Equatable, Sendable {
        /// A valid record; the offsets of its key and stored value are absolute in the buffer.
        case record(RecordHeader, keyOffset: Int, valueOffset: Int)
        /// A frame length of 0: the start of a zero tail (or damage; the caller checks the rest).
        case zeroLength
        /// The buffer ends before the record does, and the bytes present are consistent: more
        /// bytes could complete it. Also returned when fewer than 4 bytes remain (a reader at
        /// the end of a file treats remaining bytes that are all zero as a zero tail).
        case incomplete
        /// The bytes are not a valid record (tag, flags, lengths or checksum); the sentence says why.
        case invalid(String)
    }

    /// Decodes the record starting at `offset` in `buffer`, verifying its checksum.
    ///
    /// Never traps, whatever the bytes or the offset; never returns a record whose checksum
    /// does not match.
    ///
    /// - Complexity: O(K + V) for the checksum.
    package static func decode(_ buffer: UnsafeRawBufferPointer, at offset: Int) -> Decoded {
        guard offset >= 0, offset <= buffer.count else {
            return .invalid("The record offset \(offset) is outside the buffer.")
        }
        let available = buffer.count - offset
        guard let frameLength = buffer.getUInt32LE(at: offset).map(Int.init) else { return .incomplete }
        if frameLength == 0 { return .zeroLength }
        guard frameLength >= minimumFrameLength else {
            return .invalid("The frame length \(frameLength) is below the minimum \(minimumFrameLength).")
        }
        guard available >= fieldsSize else { return .incomplete }
        guard let tag = RecordTag(rawValue: buffer[offset + 4]) else {
            return .invalid("The record tag \(buffer[offset + 4]) is unknown.")
        }
        let header = RecordHeader(
            tag: tag, flags: RecordFlags(rawValue: buffer[offset + 5]),
            dictionaryID: buffer.getUInt16LE(at: offset + 6) ?? 0,
            sequence: buffer.getUInt64LE(at: offset + 8) ?? 0,
            keyLength: Int(buffer.getUInt32LE(at: offset + 16) ?? 0),
            storedLength: Int(buffer.getUInt32LE(at: offset + 20) ?? 0),
            originalLength: Int(buffer.getUInt32LE(at: offset + 24) ?? 0))
        guard frameFixedSize + header.keyLength + header.storedLength == frameLength else {
            return .invalid("The frame length \(frameLength) does not match K = \(header.keyLength) and V = \(header.storedLength).")
        }
        if let problem = RecordHeader.shapeProblem(
            tag: header.tag, flags: header.flags, dictionaryID: header.dictionaryID,
            keyLength: header.keyLength, storedLength: header.storedLength,
            originalLength: header.originalLength)
        {
            return .invalid(problem)
        }
        let checksumOffset = offset + fieldsSize + header.keyLength + header.storedLength
        guard let stored = buffer.getUInt64LE(at: checksumOffset) else { return .incomplete }
        guard stored == Checksum.xxh3(buffer, offset..<checksumOffset) else {
            return .invalid("The record checksum does not match.")
        }
        let keyOffset = offset + fieldsSize
        return .record(header, keyOffset: keyOffset, valueOffset: keyOffset + header.keyLength)
    }

    /// The key space of `key` (segment.md): its first four bytes as a big-endian u32, or 0 for
    /// a key shorter than four bytes.
    package static func keySpace(of key: UnsafeRawBufferPointer) -> UInt32 {
        guard key.count >= 4 else { return 0 }
        return UInt32(key[0]) << 24 | UInt32(key[1]) << 16 | UInt32(key[2]) << 8 | UInt32(key[3])
    }
}
