// Builds and verifies the 32-byte segment file header (magic, version, flags, file number, checksum).
// Format: docs/format/segment.md ("Header"); records are RecordCodec's.

/// The segment file header. Stateless; safe from any thread.
package enum SegmentFormat {
    /// The header's size; the first record starts here.
    package static let headerSize = 32

    /// Returns the 32 header bytes of segment `fileNumber`.
    package static func header(fileNumber: UInt64) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(headerSize)
        FormatHeader.appendMagicAndVersion(FormatHeader.segmentMagic, to: &output)
        output.appendUInt32LE(0)
        output.appendUInt64LE(fileNumber)
        output.appendUInt64LE(Checksum.xxh3(output))
        return output
    }

    /// Checks the first 32 bytes of `bytes` against segment.md for segment `fileNumber`.
    ///
    /// - Throws: `corruption` naming `file` and the offset of the bad field: a short header,
    ///   magic, version, checksum, flags, or a file number that is not `fileNumber`.
    package static func verifyHeader(
        _ bytes: UnsafeRawBufferPointer, fileNumber: UInt64, file: String
    ) throws(StorageError) {
        try FormatHeader.verifyMagicAndVersion(
            bytes, magic: FormatHeader.segmentMagic, minimumLength: headerSize,
            what: "segment header", file: file)
        try FormatHeader.verifyChecksum(
            bytes, covering: 0..<24, storedAt: 24, what: "segment header", file: file)
        let flags = bytes.getUInt32LE(at: 12) ?? 0
        try FormatHeader.require(
            flags == 0, "The segment header sets unknown flags \(flags).", file: file, offset: 12)
        let found = bytes.getUInt64LE(at: 16) ?? 0
        try FormatHeader.require(
            found == fileNumber, "The segment header names file \(found), not \(fileNumber).",
            file: file, offset: 16)
    }
}
