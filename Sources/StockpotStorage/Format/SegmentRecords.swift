// How the records of one segment are laid out on disk: plain (docs/format/segment.md) or,
// in an encrypted store, each sealed (docs/format/encryption.md, "Sealed log record"). Every
// reader and writer of segment records goes through it.

import StockpotCore

/// The record layout of one segment: its number and the store's cipher, if any. A value type;
/// safe from any thread.
package struct SegmentRecords: Sendable {
    /// The store's cipher; nil for a plain store.
    package let cipher: FileCipher?
    /// The segment's file number (sealed records are bound to it).
    package let segment: UInt64

    package init(cipher: FileCipher?, segment: UInt64) {
        self.cipher = cipher
        self.segment = segment
    }

    /// The bytes a record on disk has beyond its plain record: 0, or a sealed record's 44.
    package var extraBytes: Int { cipher == nil ? 0 : FileCipher.recordOverhead }

    /// The length on disk of a record whose plain form `header` describes.
    package func length(of header: RecordHeader) -> Int { header.recordLength + extraBytes }

    /// What ``decode(_:at:_:)`` found at an offset.
    package enum Found: Equatable {
        /// A valid record of `length` bytes on disk; the body was called with it.
        case record(length: Int)
        /// A length of 0: the start of a zero tail (or damage; the caller checks the rest).
        case zeroLength
        /// The bytes end before the record does; more bytes could complete it.
        case incomplete
        /// The bytes are not a valid record; the sentence says why.
        case invalid(String)
    }

    /// Decodes the record at `offset` of `bytes`, verifying its checksum or authenticating it,
    /// and calls `body` with its header, key and stored value, valid only during the call.
    /// Never traps, whatever the bytes.
    ///
    /// - Parameter segmentOffset: where the record starts in its segment, when `bytes` is not
    ///   the segment from its first byte (a sealed record is bound to that place); `offset` otherwise.
    /// - Complexity: O(K + V).
    package func decode(
        _ bytes: UnsafeRawBufferPointer, at offset: Int, segmentOffset: Int? = nil,
        _ body: (RecordHeader, _ key: UnsafeRawBufferPointer, _ stored: UnsafeRawBufferPointer) throws(StorageError) -> Void
    ) throws(StorageError) -> Found {
        guard let cipher else {
            switch RecordCodec.decode(bytes, at: offset) {
            case .record(let header, let keyOffset, let valueOffset):
                try body(
                    header, UnsafeRawBufferPointer(rebasing: bytes[keyOffset..<keyOffset + header.keyLength]),
                    UnsafeRawBufferPointer(rebasing: bytes[valueOffset..<valueOffset + header.storedLength]))
                return .record(length: header.recordLength)
            case .zeroLength: return .zeroLength
            case .incomplete: return .incomplete
            case .invalid(let why): return .invalid(why)
            }
        }
        var innerProblem: String?
        let opened = try cipher.openRecord(bytes, at: offset, segment: segment, segmentOffset: segmentOffset ?? offset) {
            (plain) throws(StorageError) in
            guard case .record(let header, let keyOffset, let valueOffset) = RecordCodec.decode(plain, at: 0),
                header.recordLength == plain.count
            else {
                innerProblem = "The sealed record authenticates but does not hold one whole record."
                return
            }
            try body(
                header, UnsafeRawBufferPointer(rebasing: plain[keyOffset..<keyOffset + header.keyLength]),
                UnsafeRawBufferPointer(rebasing: plain[valueOffset..<valueOffset + header.storedLength]))
        }
        switch opened {
        case .record(let length): return innerProblem.map { .invalid($0) } ?? .record(length: length)
        case .zeroLength: return .zeroLength
        case .incomplete: return .incomplete
        case .invalid(let why): return .invalid(why)
        }
    }

    /// Whether a valid record starts at `offset` (the body is not called).
    package func isValidRecord(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        let found = try? decode(bytes, at: offset) { _, _, _ throws(StorageError) in }
        if case .record? = found { return true }
        return false
    }

    /// The first offset after `offset` where a valid record starts, or nil.
    ///
    /// - Complexity: O((n − offset) × record length) in the worst case.
    package func nextValidRecord(_ bytes: UnsafeRawBufferPointer, after offset: Int) -> Int? {
        var candidate = offset + 1
        while candidate + RecordCodec.overhead + extraBytes <= bytes.count {
            if isValidRecord(bytes, at: candidate) { return candidate }
            candidate += 1
        }
        return nil
    }

    /// Appends the record for `key` and `storedValue` that starts at `offset` of the segment
    /// (plain, or sealed for that offset) and returns its header with lengths filled in and
    /// its length on disk.
    ///
    /// - Precondition: as ``RecordCodec/append(_:key:storedValue:to:)``.
    @discardableResult
    package func append(
        _ header: RecordHeader, key: UnsafeRawBufferPointer, storedValue: UnsafeRawBufferPointer, at offset: Int,
        to output: inout [UInt8]
    ) -> (header: RecordHeader, length: Int) {
        guard let cipher else {
            let written = RecordCodec.append(header, key: key, storedValue: storedValue, to: &output)
            return (written, written.recordLength)
        }
        let plainLength = RecordCodec.overhead + key.count + storedValue.count
        var written = header
        cipher.sealRecord(plainLength: plainLength, segment: segment, offset: offset, to: &output) { output in
            written = RecordCodec.append(header, key: key, storedValue: storedValue, to: &output)
        }
        return (written, written.recordLength + extraBytes)
    }
}
