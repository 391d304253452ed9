// Builds and verifies the 48-byte blob file header, and checks a blob's value against its reference.
// Format: docs/format/blob.md.

import StockpotCore

/// The blob file header and value checks. Stateless; safe from any thread.
package enum BlobFormat {
    /// The header's size; the value starts here.
    package static let headerSize = 48

    /// Returns the 48 header bytes for `value` in blob file `fileNumber`.
    ///
    /// - Complexity: O(n) in the value's length (its checksum).
    package static func header(fileNumber: UInt64, value: UnsafeRawBufferPointer) -> [UInt8] {
        header(for: BlobReference(fileNumber: fileNumber, value: value))
    }

    /// Returns the 48 header bytes of the blob file `reference` describes.
    package static func header(for reference: BlobReference) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(headerSize)
        FormatHeader.appendMagicAndVersion(FormatHeader.blobMagic, to: &output)
        output.appendUInt32LE(0)
        output.appendUInt64LE(reference.fileNumber)
        output.appendUInt64LE(reference.length)
        output.appendUInt64LE(reference.checksum)
        output.appendUInt64LE(Checksum.xxh3(output))
        return output
    }

    /// Checks the first 48 bytes of `header` against blob.md and the reference that names it.
    ///
    /// - Throws: `corruption` naming `file` and the offset of the bad field: a short header,
    ///   magic, version, header checksum, flags, or a file number, length or value checksum
    ///   that differs from `expected`.
    package static func verifyHeader(
        _ header: UnsafeRawBufferPointer, expected: BlobReference, file: String
    ) throws(StorageError) {
        try FormatHeader.verifyMagicAndVersion(
            header, magic: FormatHeader.blobMagic, minimumLength: headerSize,
            what: "blob header", file: file)
        try FormatHeader.verifyChecksum(
            header, covering: 0..<40, storedAt: 40, what: "blob header", file: file)
        let flags = header.getUInt32LE(at: 12) ?? 0
        try FormatHeader.require(
            flags == 0, "The blob header sets unknown flags \(flags).", file: file, offset: 12)
        let fileNumber = header.getUInt64LE(at: 16) ?? 0
        try FormatHeader.require(
            fileNumber == expected.fileNumber,
            "The blob header names file \(fileNumber), not \(expected.fileNumber).",
            file: file, offset: 16)
        let length = header.getUInt64LE(at: 24) ?? 0
        try FormatHeader.require(
            length == expected.length,
            "The blob holds \(length) bytes; its reference says \(expected.length).",
            file: file, offset: 24)
        let checksum = header.getUInt64LE(at: 32) ?? 0
        try FormatHeader.require(
            checksum == expected.checksum,
            "The blob's value checksum differs from its reference's.", file: file, offset: 32)
    }

    /// Checks that `value` (the bytes after the header) is what `expected` describes.
    ///
    /// - Throws: `corruption` naming `file` at offset 48 when the length or checksum differs.
    /// - Complexity: O(n) in the value's length.
    package static func verifyValue(
        _ value: UnsafeRawBufferPointer, expected: BlobReference, file: String
    ) throws(StorageError) {
        try FormatHeader.require(
            UInt64(value.count) == expected.length,
            "The blob value is \(value.count) bytes; its reference says \(expected.length).",
            file: file, offset: headerSize)
        try FormatHeader.require(
            Checksum.xxh3(value) == expected.checksum, "The blob value checksum does not match.",
            file: file, offset: headerSize)
    }
}
