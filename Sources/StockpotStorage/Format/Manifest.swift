// The MANIFEST's contents and its byte codec: header, sealed segments, dictionaries, checksum.
// Format: docs/format/manifest.md.

import StockpotCore

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
    /// The dictionary file's content checksum (dictionary.md), which binds the entry to that
    /// exact content; 0 only in a version-1 manifest, before the upgrade fills it in.
    package var contentChecksum: UInt64

    /// Creates an entry.
    package init(fileNumber: UInt64, id: UInt16, keySpace: UInt32, contentChecksum: UInt64) {
        self.fileNumber = fileNumber
        self.id = id
        self.keySpace = keySpace
        self.contentChecksum = contentChecksum
    }
}

/// What the manifest pins of the current snapshot: the sequence it covers, its file's
/// checksum, and how far the log reached when it was taken.
package struct SnapshotBinding: Sendable, Hashable {
    /// The sequence the snapshot covers.
    package var coveredSequence: UInt64
    /// The snapshot file's trailer checksum (snapshot.md).
    package var checksum: UInt64
    /// The log position when the snapshot was taken: the active segment and the end of its
    /// durable records; segment 0 when unknown (a snapshot from before an upgrade).
    package var logSegment: UInt64
    package var logOffset: UInt64

    /// Creates a binding.
    package init(coveredSequence: UInt64, checksum: UInt64, logSegment: UInt64, logOffset: UInt64) {
        self.coveredSequence = coveredSequence
        self.checksum = checksum
        self.logSegment = logSegment
        self.logOffset = logOffset
    }
}

/// The store's live set of files, as `MANIFEST` records it. A value type; safe to share.
package struct Manifest: Sendable, Equatable {
    /// The store's identity; nil only for a version-1 manifest before its upgrade.
    package var identity: StoreIdentity?
    /// 1 for a new store, +1 at each rewrite.
    package var generation: UInt64
    /// Every numbered file of the store is below it.
    package var nextFileNumber: UInt64
    /// The segment being appended to.
    package var activeSegment: UInt64
    /// Segments and hints numbered below it may be version-1 files without the identity.
    package var legacyBelow: UInt64
    /// The current snapshot file's number, 0 for none.
    package var snapshot: UInt64
    /// What pins the snapshot; nil without a snapshot, or in a version-1 manifest.
    package var snapshotBinding: SnapshotBinding?
    /// The sealed segments (written in ascending number order).
    package var sealedSegments: [SealedSegment]
    /// Every dictionary of the store (written in ascending id order).
    package var dictionaries: [DictionaryEntry]
    /// The format version the manifest was read in (written manifests are always version 2).
    package var formatVersion: UInt32 = FormatHeader.identityVersion

    /// The size of the fixed header.
    package static let headerSize = 112
    /// The size of one sealed-segment entry.
    package static let sealedEntrySize = 32
    /// The size of one dictionary entry.
    package static let dictionaryEntrySize = 24
    /// Version 1's header and dictionary entry sizes.
    static let version1HeaderSize = 56
    static let version1DictionaryEntrySize = 16

    /// Creates a manifest.
    package init(
        identity: StoreIdentity?, generation: UInt64, nextFileNumber: UInt64, activeSegment: UInt64,
        legacyBelow: UInt64 = 1, snapshot: UInt64 = 0, snapshotBinding: SnapshotBinding? = nil,
        sealedSegments: [SealedSegment] = [], dictionaries: [DictionaryEntry] = []
    ) {
        self.identity = identity
        self.generation = generation
        self.nextFileNumber = nextFileNumber
        self.activeSegment = activeSegment
        self.legacyBelow = legacyBelow
        self.snapshot = snapshot
        self.snapshotBinding = snapshotBinding
        self.sealedSegments = sealedSegments
        self.dictionaries = dictionaries
    }

    /// Whether file `number` (a segment or hint) may be a version-1 file without the identity.
    package func allowsLegacy(_ number: UInt64) -> Bool { number < legacyBelow }

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
        let binding = snapshotBinding ?? SnapshotBinding(coveredSequence: 0, checksum: 0, logSegment: 0, logOffset: 0)
        FormatHeader.appendMagicAndVersion(FormatHeader.manifestMagic, version: FormatHeader.identityVersion, to: &output)
        output.appendUInt32LE(0)
        output.append(contentsOf: identity?.bytes ?? Array(repeating: 0, count: StoreIdentity.size))
        output.appendUInt64LE(generation)
        output.appendUInt64LE(nextFileNumber)
        output.appendUInt64LE(activeSegment)
        output.appendUInt64LE(legacyBelow)
        output.appendUInt64LE(snapshot)
        output.appendUInt64LE(binding.coveredSequence)
        output.appendUInt64LE(binding.checksum)
        output.appendUInt64LE(binding.logSegment)
        output.appendUInt64LE(binding.logOffset)
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
            output.appendUInt64LE(dictionary.contentChecksum)
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

    /// Decodes and checks a manifest of version 2, or of version 1 (which has no identity,
    /// no snapshot binding and no dictionary checksums; `formatVersion` says which).
    ///
    /// - Throws: `corruption` naming `file` and the offset of the first bad field: length,
    ///   magic, version, checksum, flags, or a rule of manifest.md that does not hold.
    package static func decode(_ bytes: UnsafeRawBufferPointer, file: String) throws(StorageError) -> Manifest {
        let version = try FormatHeader.verifyMagicAndVersion(
            bytes, magic: FormatHeader.manifestMagic,
            versions: [FormatHeader.identityVersion, FormatHeader.version],
            minimumLength: { ($0 == FormatHeader.version ? version1HeaderSize : headerSize) + 8 },
            what: "manifest", file: file)
        let isVersion1 = version == FormatHeader.version
        let fixedSize = isVersion1 ? version1HeaderSize : headerSize
        let dictionarySize = isVersion1 ? version1DictionaryEntrySize : dictionaryEntrySize
        let countsAt = fixedSize - 8
        let sealedCount = Int(bytes.getUInt32LE(at: countsAt) ?? 0)
        let dictionaryCount = Int(bytes.getUInt32LE(at: countsAt + 4) ?? 0)
        let expectedLength = fixedSize + sealedCount * sealedEntrySize + dictionaryCount * dictionarySize + 8
        try FormatHeader.require(
            bytes.count == expectedLength,
            "The manifest is \(bytes.count) bytes; its entry counts make it \(expectedLength).",
            file: file, offset: countsAt)
        try FormatHeader.verifyChecksum(
            bytes, covering: 0..<(bytes.count - 8), storedAt: bytes.count - 8, what: "manifest",
            file: file)
        var reader = ByteReader(bytes, offset: 12)
        let flags = reader.readUInt32LE() ?? 0
        try FormatHeader.require(flags == 0, "The manifest sets unknown flags \(flags).", file: file, offset: 12)
        var manifest: Manifest
        if isVersion1 {
            manifest = Manifest(
                identity: nil, generation: reader.readUInt64LE() ?? 0, nextFileNumber: reader.readUInt64LE() ?? 0,
                activeSegment: reader.readUInt64LE() ?? 0)
            manifest.snapshot = reader.readUInt64LE() ?? 0
            manifest.legacyBelow = manifest.nextFileNumber
            manifest.formatVersion = version
        } else {
            let identity = bytes.getIdentity(at: 16)
            try FormatHeader.require(
                identity.map { !$0.isZero } ?? false, "The manifest's store identity is all zero.", file: file, offset: 16)
            reader.offset = 32
            manifest = Manifest(
                identity: identity, generation: reader.readUInt64LE() ?? 0, nextFileNumber: reader.readUInt64LE() ?? 0,
                activeSegment: reader.readUInt64LE() ?? 0, legacyBelow: reader.readUInt64LE() ?? 0)
            manifest.snapshot = reader.readUInt64LE() ?? 0
            let binding = SnapshotBinding(
                coveredSequence: reader.readUInt64LE() ?? 0, checksum: reader.readUInt64LE() ?? 0,
                logSegment: reader.readUInt64LE() ?? 0, logOffset: reader.readUInt64LE() ?? 0)
            if manifest.snapshot != 0 {
                manifest.snapshotBinding = binding
            } else {
                try FormatHeader.require(
                    binding == SnapshotBinding(coveredSequence: 0, checksum: 0, logSegment: 0, logOffset: 0),
                    "The manifest names no snapshot but holds a snapshot binding.", file: file, offset: 72)
            }
        }
        let next = manifest.nextFileNumber
        let generationAt = isVersion1 ? 16 : 32
        let activeAt = isVersion1 ? 32 : 48
        try FormatHeader.require(manifest.generation >= 1, "The manifest's generation is 0.", file: file, offset: generationAt)
        try FormatHeader.require(
            (1..<max(next, 1)).contains(manifest.activeSegment),
            "The active segment \(manifest.activeSegment) is not in 1 ..< next file number \(next).",
            file: file, offset: activeAt)
        try FormatHeader.require(
            (1...max(next, 1)).contains(manifest.legacyBelow),
            "The manifest's legacy bound \(manifest.legacyBelow) is not in 1 ... next file number \(next).",
            file: file, offset: 56)
        try FormatHeader.require(
            manifest.snapshot < next,
            "The snapshot \(manifest.snapshot) is not below the next file number \(next).",
            file: file, offset: isVersion1 ? 40 : 64)
        if let binding = manifest.snapshotBinding {
            try FormatHeader.require(
                binding.logSegment <= manifest.activeSegment,
                "The snapshot's log segment \(binding.logSegment) is past the active segment.",
                file: file, offset: 88)
        }
        reader.offset = fixedSize
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
                segment.length >= UInt64(SegmentFormat.version1HeaderSize),
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
            let keySpace = reader.readUInt32LE() ?? 0
            let checksum = isVersion1 ? 0 : reader.readUInt64LE() ?? 0
            let entry = DictionaryEntry(fileNumber: fileNumber, id: id, keySpace: keySpace, contentChecksum: checksum)
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
