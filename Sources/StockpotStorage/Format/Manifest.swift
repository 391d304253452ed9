// The MANIFEST's contents and its byte codec: header, sealed segments, dictionaries, checksum.
// Format: docs/format/manifest.md.

/// A sealed segment's entry in the manifest.
package struct SealedSegment: Sendable, Hashable {
    /// The segment's file number.
    package var number: UInt64
    /// Its exact length in bytes (at least the 32-byte header).
    package var length: UInt64
    /// The lowest sequence number in it.
    package var minSequence: UInt64
    /// The highest sequence number in it.
    package var maxSequence: UInt64

    /// Creates an entry.
    package init(number: UInt64, length: UInt64, minSequence: UInt64, maxSequence: UInt64) {
        self.number = number
        self.length = length
        self.minSequence = minSequence
        self.maxSequence = maxSequence
    }
}

/// A dictionary's entry in the manifest.
package struct DictionaryEntry: Sendable, Hashable {
    /// The dictionary file's number.
    package var fileNumber: UInt64
    /// The id records name it by, 1 ... 65,535.
    package var id: UInt16
    /// The key space it was sampled from.
    package var keySpace: UInt32

    /// Creates an entry.
    package init(fileNumber: UInt64, id: UInt16, keySpace: UInt32) {
        self.fileNumber = fileNumber
        self.id = id
        self.keySpace = keySpace
    }
}

/// The store's live set of files, as `MANIFEST` records it. A value type; safe to share.
package struct Manifest: Sendable, Equatable {
    /// 1 for a new store, +1 at each rewrite.
    package var generation: UInt64
    /// Every numbered file of the store is below it.
    package var nextFileNumber: UInt64
    /// The segment being appended to.
    package var activeSegment: UInt64
    /// The current snapshot file's number, 0 for none.
    package var snapshot: UInt64
    /// The sealed segments (written in ascending number order).
    package var sealedSegments: [SealedSegment]
    /// Every dictionary of the store (written in ascending id order).
    package var dictionaries: [DictionaryEntry]

    /// The size of the fixed header.
    package static let headerSize = 56
    /// The size of one sealed-segment entry.
    package static let sealedEntrySize = 32
    /// The size of one dictionary entry.
    package static let dictionaryEntrySize = 16

    /// Creates a manifest.
    package init(
        generation: UInt64, nextFileNumber: UInt64, activeSegment: UInt64, snapshot: UInt64 = 0,
        sealedSegments: [SealedSegment] = [], dictionaries: [DictionaryEntry] = []
    ) {
        self.generation = generation
        self.nextFileNumber = nextFileNumber
        self.activeSegment = activeSegment
        self.snapshot = snapshot
        self.sealedSegments = sealedSegments
        self.dictionaries = dictionaries
    }

    /// The manifest's bytes, sealed segments sorted by number and dictionaries by id.
    ///
    /// - Precondition: the manifest follows manifest.md's rules ("A manifest verifies when"),
    ///   checked by decoding the result. Writing a manifest the store could not reopen is a
    ///   programmer error.
    package func encoded() -> [UInt8] {
        let sealed = sealedSegments.sorted { $0.number < $1.number }
        let dictionaries = dictionaries.sorted { $0.id < $1.id }
        var output: [UInt8] = []
        output.reserveCapacity(
            Self.headerSize + sealed.count * Self.sealedEntrySize
                + dictionaries.count * Self.dictionaryEntrySize + 8)
        FormatHeader.appendMagicAndVersion(FormatHeader.manifestMagic, to: &output)
        output.appendUInt32LE(0)
        output.appendUInt64LE(generation)
        output.appendUInt64LE(nextFileNumber)
        output.appendUInt64LE(activeSegment)
        output.appendUInt64LE(snapshot)
        output.appendUInt32LE(UInt32(sealed.count))
        output.appendUInt32LE(UInt32(dictionaries.count))
        for segment in sealed {
            output.appendUInt64LE(segment.number)
            output.appendUInt64LE(segment.length)
            output.appendUInt64LE(segment.minSequence)
            output.appendUInt64LE(segment.maxSequence)
        }
        for dictionary in dictionaries {
            output.appendUInt64LE(dictionary.fileNumber)
            output.appendUInt16LE(dictionary.id)
            output.appendUInt16LE(0)
            output.appendUInt32LE(dictionary.keySpace)
        }
        output.appendUInt64LE(Checksum.xxh3(output))
        do {
            _ = try output.withUnsafeBytes { bytes throws(StorageError) in
                try Self.decode(bytes, file: FileNames.manifest)
            }
        } catch {
            preconditionFailure("Writing an invalid manifest: \(error)")
        }
        return output
    }

    /// Decodes and checks a manifest.
    ///
    /// - Throws: `corruption` naming `file` and the offset of the first bad field: length,
    ///   magic, version, checksum, flags, or a rule of manifest.md that does not hold.
    package static func decode(_ bytes: UnsafeRawBufferPointer, file: String) throws(StorageError) -> Manifest {
        try FormatHeader.verifyMagicAndVersion(
            bytes, magic: FormatHeader.manifestMagic, minimumLength: headerSize + 8,
            what: "manifest", file: file)
        let sealedCount = Int(bytes.getUInt32LE(at: 48) ?? 0)
        let dictionaryCount = Int(bytes.getUInt32LE(at: 52) ?? 0)
        let expectedLength = headerSize + sealedCount * sealedEntrySize
            + dictionaryCount * dictionaryEntrySize + 8
        try FormatHeader.require(
            bytes.count == expectedLength,
            "The manifest is \(bytes.count) bytes; its entry counts make it \(expectedLength).",
            file: file, offset: 48)
        try FormatHeader.verifyChecksum(
            bytes, covering: 0..<(bytes.count - 8), storedAt: bytes.count - 8, what: "manifest",
            file: file)
        var reader = ByteReader(bytes, offset: 12)
        let flags = reader.readUInt32LE() ?? 0
        try FormatHeader.require(flags == 0, "The manifest sets unknown flags \(flags).", file: file, offset: 12)
        var manifest = Manifest(
            generation: reader.readUInt64LE() ?? 0, nextFileNumber: reader.readUInt64LE() ?? 0,
            activeSegment: reader.readUInt64LE() ?? 0, snapshot: reader.readUInt64LE() ?? 0)
        let next = manifest.nextFileNumber
        try FormatHeader.require(manifest.generation >= 1, "The manifest's generation is 0.", file: file, offset: 16)
        try FormatHeader.require(
            (1..<max(next, 1)).contains(manifest.activeSegment),
            "The active segment \(manifest.activeSegment) is not in 1 ..< next file number \(next).",
            file: file, offset: 32)
        try FormatHeader.require(
            manifest.snapshot < next,
            "The snapshot \(manifest.snapshot) is not below the next file number \(next).",
            file: file, offset: 40)
        reader.offset = headerSize
        for index in 0..<sealedCount {
            let at = reader.offset
            let segment = SealedSegment(
                number: reader.readUInt64LE() ?? 0, length: reader.readUInt64LE() ?? 0,
                minSequence: reader.readUInt64LE() ?? 0, maxSequence: reader.readUInt64LE() ?? 0)
            let previous = index == 0 ? 0 : manifest.sealedSegments[index - 1].number
            try FormatHeader.require(
                segment.number > previous && segment.number < next
                    && segment.number != manifest.activeSegment,
                "Sealed segment \(segment.number) is out of order, the active segment, or not below \(next).",
                file: file, offset: at)
            try FormatHeader.require(
                segment.length >= UInt64(SegmentFormat.headerSize),
                "Sealed segment \(segment.number) is shorter than a segment header.",
                file: file, offset: at + 8)
            try FormatHeader.require(
                segment.minSequence <= segment.maxSequence,
                "Sealed segment \(segment.number) has its lowest sequence above its highest.",
                file: file, offset: at + 16)
            manifest.sealedSegments.append(segment)
        }
        for index in 0..<dictionaryCount {
            let at = reader.offset
            let fileNumber = reader.readUInt64LE() ?? 0
            let id = reader.readUInt16LE() ?? 0
            let entryFlags = reader.readUInt16LE() ?? 0
            let entry = DictionaryEntry(fileNumber: fileNumber, id: id, keySpace: reader.readUInt32LE() ?? 0)
            try FormatHeader.require(
                (1..<max(next, 1)).contains(fileNumber),
                "Dictionary file \(fileNumber) is not in 1 ..< next file number \(next).",
                file: file, offset: at)
            let previous = index == 0 ? 0 : manifest.dictionaries[index - 1].id
            try FormatHeader.require(
                id > previous, "Dictionary id \(id) is 0 or out of ascending order.",
                file: file, offset: at + 8)
            try FormatHeader.require(
                entryFlags == 0, "Dictionary \(id) sets unknown flags \(entryFlags).",
                file: file, offset: at + 10)
            manifest.dictionaries.append(entry)
        }
        return manifest
    }
}
