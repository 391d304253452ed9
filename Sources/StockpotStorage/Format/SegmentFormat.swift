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

    /// Returns the 48 header bytes of segment `fileNumber` of the store `identity`.
    package static func header(fileNumber: UInt64, identity: StoreIdentity) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(headerSize)
        FormatHeader.appendMagicAndVersion(FormatHeader.segmentMagic, version: FormatHeader.identityVersion, to: &output)
        output.appendUInt32LE(0)
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
    /// - Throws: `corruption` naming `file` and the offset of the bad field: a short header,
    ///   magic, version, checksum, flags, a file number that is not `fileNumber`, or another
    ///   store's identity.
    @discardableResult
    package static func verifyHeader(
        _ bytes: UnsafeRawBufferPointer, fileNumber: UInt64, identity: StoreIdentity?, allowsLegacy: Bool,
        file: String
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
            flags == 0, "The segment header sets unknown flags \(flags).", file: file, offset: 12)
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
