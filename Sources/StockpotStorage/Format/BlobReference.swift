// The 24-byte reference a put-blob record stores: blob file number, value length, value checksum.
// Format: docs/format/segment.md ("put-blob") and docs/format/blob.md.

import StockpotCore

/// Names a blob file and what it must hold; the stored value of a put-blob record.
package struct BlobReference: Sendable, Hashable {
    /// The blob file's number.
    package var fileNumber: UInt64
    /// The value's length L.
    package var length: UInt64
    /// The XXH3-64 of the value.
    package var checksum: UInt64

    /// The encoded size: three little-endian u64s.
    package static let encodedSize = 24

    /// Creates a reference from its fields.
    package init(fileNumber: UInt64, length: UInt64, checksum: UInt64) {
        self.fileNumber = fileNumber
        self.length = length
        self.checksum = checksum
    }

    /// Creates the reference to `value` stored in blob file `fileNumber` (computes its checksum).
    ///
    /// - Complexity: O(n) in the value's length.
    package init(fileNumber: UInt64, value: UnsafeRawBufferPointer) {
        self.init(fileNumber: fileNumber, length: UInt64(value.count), checksum: Checksum.xxh3(value))
    }

    /// The 24 bytes: file number, length, checksum.
    package func encoded() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(Self.encodedSize)
        output.appendUInt64LE(fileNumber)
        output.appendUInt64LE(length)
        output.appendUInt64LE(checksum)
        return output
    }

    /// Decodes a reference, or returns nil unless `bytes` is exactly 24 bytes.
    package init?(decoding bytes: UnsafeRawBufferPointer) {
        guard bytes.count == Self.encodedSize, let fileNumber = bytes.getUInt64LE(at: 0),
            let length = bytes.getUInt64LE(at: 8), let checksum = bytes.getUInt64LE(at: 16)
        else { return nil }
        self.init(fileNumber: fileNumber, length: length, checksum: checksum)
    }
}
