// Builds and verifies the segment file header: magic, version, flags, file number, the store
// identity (version 2) and a checksum. Format: docs/format/segment.md ("Header"); records are
// RecordCodec's.

import StockpotCore

/// The segment file header. Stateless; safe from any thread.
package enum SegmentFormat {
    /// The size of the header segments are written with (version 2); their first record
    /// starts here.
    package static let headerSize = 48
    /// The size of a version-1 header (a store upgraded from version 1).
    package static let version1HeaderSize = 32

    /// The flag bit saying the segment's records are sealed (docs/format/encryption.md).
    package static let sealedFlag: UInt32 = 1

    /// Returns the 48 header bytes of segment `fileNumber` of the store `identity`, whose
    /// records are `sealed` in an encrypted store.
    package static func header(fileNumber: UInt64, identity: StoreIdentity, sealed: Bool = false) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(headerSize)
        FormatHeader.appendMagicAndVersion(FormatHeader.segmentMagic, version: FormatHeader.identityVersion, to: &output)
        output.appendUInt32LE(sealed ? sealedFlag : 0)
        output.appendUInt64LE(fileNumber)
        output.appendIdentity(identity)
        output.appendUInt64LE(Checksum.xxh3(output))
        return output
    }

    /// The header size a segment's version field announces (48, or 32 for version 1), for
    /// readers that go on past a bad header; nil when fewer than 12 bytes are there.
    package static func announcedHeaderSize(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let version = bytes.getUInt32LE(at: 8) else { return nil }
        return version == FormatHeader.version ? version1HeaderSize : headerSize
    }

    /// Checks the header at the start of `bytes` against segment.md for segment `fileNumber`
    /// of the store `identity`, and returns its size (where the first record starts). A
    /// version-1 header, which has no identity, is accepted only when `allowsLegacy`.
    ///
    /// A segment of an encrypted store (`sealed`) must say its records are sealed, and a
    /// plain store's must not.
    ///
    /// - Throws: `corruption` naming `file` and the offset of the bad field: a short header,
    ///   magic, version, checksum, flags, a file number that is not `fileNumber`, or another
    ///   store's identity.
    @discardableResult
    package static func verifyHeader(
        _ bytes: UnsafeRawBufferPointer, fileNumber: UInt64, identity: StoreIdentity?, allowsLegacy: Bool,
        sealed: Bool = false, file: String
    ) throws(StorageError) -> Int {
        let versions = allowsLegacy ? [FormatHeader.identityVersion, FormatHeader.version] : [FormatHeader.identityVersion]
        let version = try FormatHeader.verifyMagicAndVersion(
            bytes, magic: FormatHeader.segmentMagic, versions: versions,
            minimumLength: { $0 == FormatHeader.version ? version1HeaderSize : headerSize },
            what: "segment header", file: file)
        let size = version == FormatHeader.version ? version1HeaderSize : headerSize
        try FormatHeader.verifyChecksum(
            bytes, covering: 0..<(size - 8), storedAt: size - 8, what: "segment header", file: file)
        let flags = bytes.getUInt32LE(at: 12) ?? 0
        try FormatHeader.require(
            flags & ~sealedFlag == 0 && (flags == 0 || size == headerSize),
            "The segment header sets unknown flags \(flags).", file: file, offset: 12)
        try FormatHeader.require(
            (flags == sealedFlag) == sealed,
            sealed ? "The segment is not encrypted, but the store is." : "The segment is encrypted, but the store is not.",
            file: file, offset: 12)
        let found = bytes.getUInt64LE(at: 16) ?? 0
        try FormatHeader.require(
            found == fileNumber, "The segment header names file \(found), not \(fileNumber).",
            file: file, offset: 16)
        if size == headerSize, let identity {
            let stored = bytes.getIdentity(at: 24)
            try FormatHeader.require(
                stored == identity,
                "The segment belongs to another store (identity \(stored?.description ?? "?"), not \(identity)).",
                file: file, offset: 24)
        }
        return size
    }
}
