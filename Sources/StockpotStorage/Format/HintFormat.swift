// Encodes and decodes a hint file: one entry per record of a sealed segment, without values.
// Format: docs/format/hint.md.

import StockpotCore

/// One record of a sealed segment, as its hint file lists it.
package struct HintEntry: Sendable, Equatable {
    /// The record's tag.
    package var tag: RecordTag
    /// The record's flags.
    package var flags: RecordFlags
    /// The record's key, 1 ... 65,535 bytes.
    package var key: [UInt8]
    /// The record's offset in the segment.
    package var offset: Int
    /// The record's length in the segment, `36 + K + V` (plus 44 when sealed).
    package var recordLength: Int
    /// The record's sequence number.
    package var sequence: UInt64
    /// The value's length before compression.
    package var originalLength: Int

    /// Creates an entry.
    package init(
        tag: RecordTag, flags: RecordFlags, key: [UInt8], offset: Int, recordLength: Int,
        sequence: UInt64, originalLength: Int
    ) {
        self.tag = tag
        self.flags = flags
        self.key = key
        self.offset = offset
        self.recordLength = recordLength
        self.sequence = sequence
        self.originalLength = originalLength
    }
}

/// The segment a hint file describes, and the store it belongs to: what a hint file is
/// checked against.
package struct HintSubject: Sendable, Equatable {
    /// The segment's file number.
    package var segmentNumber: UInt64
    /// Its length, as the manifest records it.
    package var segmentLength: UInt64
    /// Where its first record starts: its header's size (48, or 32 for a version-1 segment).
    package var firstRecordOffset: Int
    /// The store's identity (nil: not checked, for tools reading without a manifest).
    package var identity: StoreIdentity?
    /// Whether a version-1 hint file, which has no identity, is acceptable.
    package var allowsLegacy: Bool
    /// The bytes each record of the segment has beyond its plain record: 0, or 44 for the
    /// sealed records of an encrypted store (whose record lengths include them).
    package var recordExtraBytes: Int

    /// Creates a subject.
    package init(
        segmentNumber: UInt64, segmentLength: UInt64, firstRecordOffset: Int = SegmentFormat.headerSize,
        identity: StoreIdentity?, allowsLegacy: Bool = false, recordExtraBytes: Int = 0
    ) {
        self.recordExtraBytes = recordExtraBytes
        self.segmentNumber = segmentNumber
        self.segmentLength = segmentLength
        self.firstRecordOffset = firstRecordOffset
        self.identity = identity
        self.allowsLegacy = allowsLegacy
    }
}

/// The hint file codec. Stateless; safe from any thread.
package enum HintFormat {
    /// The size of the header (version 2).
    package static let headerSize = 48
    /// The size of a version-1 header.
    static let version1HeaderSize = 32
    /// The size of an entry without its key.
    package static let entryFixedSize = 24
    /// The size of the trailer: entry count and checksum.
    package static let trailerSize = 16

    /// Returns the hint file of `subject` (whose identity must be set).
    ///
    /// - Precondition: the entries tile the segment as `decode` requires (in offset order from
    ///   its first record to its length, the last ending a batch, each with a valid record
    ///   shape). A violation is a programmer error, checked by decoding the result.
    /// - Complexity: O(total key bytes).
    package static func encode(_ subject: HintSubject, entries: [HintEntry]) -> [UInt8] {
        encode(subject, entries: EncodedHints(entries))
    }

    /// Returns the hint file of `subject` whose entries are already encoded.
    ///
    /// - Precondition: as for `encode(_:entries:)` with entries.
    /// - Complexity: O(total key bytes).
    package static func encode(_ subject: HintSubject, entries: EncodedHints) -> [UInt8] {
        do {
            return try checkedFile(subject, entries: entries)
        } catch {
            preconditionFailure("Writing an invalid hint file: \(error)")
        }
    }

    /// The hint file of `subject` whose entries are already encoded, checked by decoding it.
    ///
    /// - Throws: `corruption` when the entries do not make a valid file (entries read back
    ///   from a temporary file that changed under the engine).
    /// - Complexity: O(total key bytes).
    package static func checkedFile(_ subject: HintSubject, entries: EncodedHints) throws(StorageError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(headerSize + trailerSize + entries.bytes.count)
        FormatHeader.appendMagicAndVersion(FormatHeader.hintMagic, version: FormatHeader.identityVersion, to: &output)
        output.appendUInt32LE(0)
        output.appendUInt64LE(subject.segmentNumber)
        output.appendUInt64LE(subject.segmentLength)
        output.append(contentsOf: subject.identity?.bytes ?? Array(repeating: 0, count: StoreIdentity.size))
        output.append(contentsOf: entries.bytes)
        output.appendUInt64LE(UInt64(entries.count))
        output.appendUInt64LE(Checksum.xxh3(output))
        var failure: StorageError?
        output.withUnsafeBytes { bytes in
            do throws(StorageError) {
                try forEachEntry(bytes, subject, file: "hint") { _, _ in }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return output
    }

    /// Decodes and checks the hint file of `subject`.
    ///
    /// - Throws: `corruption` naming `file` and the offset of the first bad field: length,
    ///   checksum, magic, version, flags, another store's identity, a segment number or
    ///   length that differs, an entry count that differs, or an entry that breaks hint.md's
    ///   rules.
    /// - Complexity: O(file length).
    package static func decode(_ bytes: UnsafeRawBufferPointer, _ subject: HintSubject, file: String) throws(StorageError) -> [HintEntry] {
        var entries: [HintEntry] = []
        try forEachEntry(bytes, subject, file: file) { entry, key in
            entries.append(
                HintEntry(
                    tag: entry.tag, flags: entry.flags, key: Array(key), offset: entry.offset,
                    recordLength: entry.recordLength, sequence: entry.sequence, originalLength: entry.originalLength))
        }
        return entries
    }

    /// The fields of one hint entry but its key, as ``forEachEntry(_:_:file:_:)``
    /// hands them over.
    package struct Fields {
        /// The record's tag.
        package var tag: RecordTag
        /// The record's flags.
        package var flags: RecordFlags
        /// The record's offset in the segment.
        package var offset: Int
        /// The record's length, `36 + K + V`.
        package var recordLength: Int
        /// The record's sequence number.
        package var sequence: UInt64
        /// The value's length before compression.
        package var originalLength: Int
    }

    /// Checks the hint file of `subject` as ``decode(_:_:file:)`` does, calling `body` with
    /// each entry's fields and key bytes (valid only during the call) in file order, without
    /// an allocation per entry. `body` sees entries before the file's last checks pass: a
    /// caller keeps nothing it was given when this throws.
    ///
    /// - Throws: as ``decode(_:_:file:)``.
    /// - Complexity: O(file length).
    package static func forEachEntry(
        _ bytes: UnsafeRawBufferPointer, _ subject: HintSubject, file: String,
        _ body: (Fields, UnsafeRawBufferPointer) -> Void
    ) throws(StorageError) {
        let versions = subject.allowsLegacy ? [FormatHeader.identityVersion, FormatHeader.version] : [FormatHeader.identityVersion]
        let version = try FormatHeader.verifyMagicAndVersion(
            bytes, magic: FormatHeader.hintMagic, versions: versions,
            minimumLength: { ($0 == FormatHeader.version ? version1HeaderSize : headerSize) + trailerSize },
            what: "hint file", file: file)
        let entriesStart = version == FormatHeader.version ? version1HeaderSize : headerSize
        let trailer = bytes.count - trailerSize
        try FormatHeader.verifyChecksum(
            bytes, covering: 0..<(bytes.count - 8), storedAt: bytes.count - 8, what: "hint file",
            file: file)
        let flags = bytes.getUInt32LE(at: 12) ?? 0
        try FormatHeader.require(flags == 0, "The hint file sets unknown flags \(flags).", file: file, offset: 12)
        let segmentNumber = subject.segmentNumber
        let segmentLength = subject.segmentLength
        let number = bytes.getUInt64LE(at: 16) ?? 0
        try FormatHeader.require(
            number == segmentNumber, "The hint file describes segment \(number), not \(segmentNumber).",
            file: file, offset: 16)
        let length = bytes.getUInt64LE(at: 24) ?? 0
        try FormatHeader.require(
            length == segmentLength,
            "The hint file describes a segment of \(length) bytes; the manifest says \(segmentLength).",
            file: file, offset: 24)
        if entriesStart == headerSize, let identity = subject.identity {
            try FormatHeader.require(
                bytes.getIdentity(at: 32) == identity, "The hint file belongs to another store.", file: file, offset: 32)
        }
        var count = 0
        var lastEntryAt = entriesStart
        var lastEndsBatch = true
        var reader = ByteReader(UnsafeRawBufferPointer(rebasing: bytes[0..<trailer]), offset: entriesStart)
        var expectedOffset = subject.firstRecordOffset
        while !reader.isAtEnd {
            let at = reader.offset
            guard let rawTag = reader.readUInt8(), let rawFlags = reader.readUInt8(),
                let keyLength = reader.readUInt16LE().map(Int.init),
                let offset = reader.readUInt32LE().map(Int.init),
                let recordLength = reader.readUInt32LE().map(Int.init),
                let sequence = reader.readUInt64LE(),
                let originalLength = reader.readUInt32LE().map(Int.init),
                let key = reader.readBytes(keyLength)
            else {
                throw .corruption("A hint entry runs past the trailer.", file: file, offset: at)
            }
            guard let tag = RecordTag(rawValue: rawTag) else {
                throw .corruption("A hint entry has unknown tag \(rawTag).", file: file, offset: at)
            }
            let flags = RecordFlags(rawValue: rawFlags)
            if let problem = RecordHeader.shapeProblem(
                tag: tag, flags: flags, dictionaryID: nil, keyLength: keyLength,
                storedLength: recordLength - subject.recordExtraBytes - RecordCodec.overhead - keyLength,
                originalLength: originalLength)
            {
                throw .corruption(problem, file: file, offset: at)
            }
            try FormatHeader.require(
                offset == expectedOffset,
                "A hint entry is at segment offset \(offset); the previous record ends at \(expectedOffset).",
                file: file, offset: at + 4)
            expectedOffset += recordLength
            count += 1
            lastEntryAt = at
            lastEndsBatch = flags.contains(.batchEnd)
            body(
                Fields(
                    tag: tag, flags: flags, offset: offset, recordLength: recordLength, sequence: sequence,
                    originalLength: originalLength),
                key)
        }
        let counted = bytes.getUInt64LE(at: trailer) ?? 0
        try FormatHeader.require(
            counted == UInt64(count),
            "The hint trailer counts \(counted) entries; the file holds \(count).",
            file: file, offset: trailer)
        try FormatHeader.require(
            UInt64(expectedOffset) == segmentLength,
            "The hint entries end at segment offset \(expectedOffset), not at its length \(segmentLength).",
            file: file, offset: trailer)
        try FormatHeader.require(
            lastEndsBatch, "The last hint entry does not end a batch.", file: file, offset: lastEntryAt)
    }
}
