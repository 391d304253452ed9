// The fixed fields of a segment record (tag, flags, dictionary, sequence, lengths) and the rules
// a record's shape must follow. Format: docs/format/segment.md ("Record").

/// What a record says about its key. Raw values are on disk: never reuse one; 0 is invalid.
package enum RecordTag: UInt8, Sendable, Hashable, CaseIterable {
    /// The key now has the stored value.
    case put = 1
    /// The key has no value.
    case delete = 2
    /// The key now has the value in the blob file the stored 24-byte reference names.
    case putBlob = 3
}

/// The flag bits of a record (segment.md); the other six bits are always 0.
package struct RecordFlags: OptionSet, Sendable, Hashable {
    /// The raw flag byte.
    package let rawValue: UInt8
    /// Creates flags from their byte.
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The record is the last of its batch.
    package static let batchEnd = RecordFlags(rawValue: 1)
    /// The stored value is an LZ4 block.
    package static let compressed = RecordFlags(rawValue: 2)
    /// Every bit a version 1 record may set.
    package static let known: RecordFlags = [.batchEnd, .compressed]
}

/// The fixed-size fields of a segment record, without its key and value bytes.
package struct RecordHeader: Sendable, Equatable {
    /// What the record does.
    package var tag: RecordTag
    /// Batch end and compression.
    package var flags: RecordFlags
    /// The LZ4 dictionary the value was compressed with; 0 for none (always 0 uncompressed).
    package var dictionaryID: UInt16
    /// The record's sequence number.
    package var sequence: UInt64
    /// K: the key's length, 1...65,535.
    package var keyLength: Int
    /// V: the stored value's length (compressed length when compressed).
    package var storedLength: Int
    /// The value's length before compression (V when not compressed).
    package var originalLength: Int

    /// Creates a header; `RecordCodec.append` fills in the lengths from the buffers it writes.
    package init(
        tag: RecordTag, flags: RecordFlags = [], dictionaryID: UInt16 = 0, sequence: UInt64,
        keyLength: Int = 0, storedLength: Int = 0, originalLength: Int = 0
    ) {
        self.tag = tag
        self.flags = flags
        self.dictionaryID = dictionaryID
        self.sequence = sequence
        self.keyLength = keyLength
        self.storedLength = storedLength
        self.originalLength = originalLength
    }

    /// The record's total size on disk: `36 + K + V`.
    package var recordLength: Int { RecordCodec.overhead + keyLength + storedLength }

    /// Returns nil when the fields describe a record segment.md allows, else a sentence saying
    /// what is wrong. `dictionaryID` nil skips the dictionary rules (hint entries have none).
    static func shapeProblem(
        tag: RecordTag, flags: RecordFlags, dictionaryID: UInt16?, keyLength: Int,
        storedLength: Int, originalLength: Int
    ) -> String? {
        if !RecordFlags.known.isSuperset(of: flags) {
            return "The record sets unknown flag bits \(flags.rawValue)."
        }
        if !(1...RecordCodec.maximumKeyLength).contains(keyLength) {
            return "The record's key length \(keyLength) is outside 1...65535."
        }
        if storedLength < 0 || originalLength < 0 || originalLength > Int(UInt32.max)
            || RecordCodec.frameFixedSize + keyLength + storedLength > Int(UInt32.max)
        {
            return "The record's lengths do not fit its fields."
        }
        let compressed = flags.contains(.compressed)
        if compressed && tag != .put {
            return "Only a put record may be compressed."
        }
        if !compressed && dictionaryID.map({ $0 != 0 }) == true {
            return "An uncompressed record names dictionary \(dictionaryID ?? 0)."
        }
        switch tag {
        case .delete where storedLength != 0 || originalLength != 0:
            return "A delete record has a value."
        case .putBlob where storedLength != BlobReference.encodedSize || originalLength != storedLength:
            return "A put-blob record's value is not a 24-byte blob reference."
        case .put where !compressed && originalLength != storedLength:
            return "An uncompressed record's original length differs from its stored length."
        case .put where compressed && (storedLength == 0 || originalLength <= storedLength):
            return "A compressed record is not shorter than its original value."
        default:
            return nil
        }
    }
}
