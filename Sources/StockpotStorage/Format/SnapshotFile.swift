// Encodes and decodes a snapshot file: header, one upper-state section (optionally LZ4), trailer.
// Format: docs/format/snapshot.md.

import StockpotCore

/// The upper layer's state as of a sequence number, as a snapshot file holds it. A value type.
package struct SnapshotFile: Sendable, Equatable {
    /// Every record with a sequence at or below it is reflected in `upperState`.
    package var coveredSequence: UInt64
    /// When the snapshot was taken, in milliseconds since the Unix epoch.
    package var createdMilliseconds: UInt64
    /// The upper layer's bytes, which the engine does not interpret.
    package var upperState: [UInt8]

    /// The size of the header.
    package static let headerSize = 40
    /// The size of a section's fields before its content.
    package static let sectionHeaderSize = 24
    /// The tag of the upper layer's state section; other tags are reserved.
    package static let upperStateTag: UInt32 = 1
    /// The section flag bit saying the content is one LZ4 block.
    package static let compressedFlag: UInt32 = 1

    /// Creates a snapshot.
    package init(coveredSequence: UInt64, createdMilliseconds: UInt64, upperState: [UInt8]) {
        self.coveredSequence = coveredSequence
        self.createdMilliseconds = createdMilliseconds
        self.upperState = upperState
    }

    /// The file's bytes. With `compressed`, the state is stored as an LZ4 block when that saves
    /// at least 1/16 of it, and as is otherwise.
    ///
    /// - Complexity: O(n) in the state's length.
    package func encoded(compressed: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(Self.headerSize + Self.sectionHeaderSize + upperState.count + 16)
        FormatHeader.appendMagicAndVersion(FormatHeader.snapshotMagic, to: &output)
        output.appendUInt32LE(1)
        output.appendUInt64LE(coveredSequence)
        output.appendUInt64LE(createdMilliseconds)
        output.appendUInt64LE(Checksum.xxh3(output))
        var content: [UInt8] = []
        let isCompressed =
            compressed
            && upperState.withUnsafeBytes {
                LZ4Codec.compress($0, dictionary: UnsafeRawBufferPointer(start: nil, count: 0), appendingTo: &content)
            } != nil
        if !isCompressed { content = upperState }
        output.appendUInt32LE(Self.upperStateTag)
        output.appendUInt32LE(isCompressed ? Self.compressedFlag : 0)
        output.appendUInt64LE(UInt64(content.count))
        output.appendUInt64LE(UInt64(upperState.count))
        output.append(contentsOf: content)
        output.appendUInt64LE(Checksum.xxh3(content))
        output.appendUInt64LE(Checksum.xxh3(output))
        return output
    }

    /// The trailer checksum stored in a snapshot file's last 8 bytes (0 for fewer bytes): what
    /// the manifest pins the file by (manifest.md).
    package static func trailerChecksum(of bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { $0.getUInt64LE(at: $0.count - 8) ?? 0 }
    }

    /// Decodes and checks a whole snapshot file.
    ///
    /// - Throws: `corruption` naming `file` and the offset of the first bad field: a short file,
    ///   magic, version, trailer or header checksum, a section count, tag, flags or length that
    ///   breaks snapshot.md's rules, a content checksum, or a block that does not decompress.
    /// - Complexity: O(file length + state length).
    package static func decode(_ bytes: UnsafeRawBufferPointer, file: String) throws(StorageError) -> SnapshotFile {
        try FormatHeader.verifyMagicAndVersion(
            bytes, magic: FormatHeader.snapshotMagic, minimumLength: headerSize + 8,
            what: "snapshot file", file: file)
        let trailer = bytes.count - 8
        try FormatHeader.verifyChecksum(
            bytes, covering: 0..<trailer, storedAt: trailer, what: "snapshot file", file: file)
        try FormatHeader.verifyChecksum(
            bytes, covering: 0..<32, storedAt: 32, what: "snapshot header", file: file)
        let sectionCount = bytes.getUInt32LE(at: 12) ?? 0
        var reader = ByteReader(UnsafeRawBufferPointer(rebasing: bytes[0..<trailer]), offset: headerSize)
        var state: [UInt8]?
        var sectionsRead: UInt32 = 0
        while !reader.isAtEnd {
            let at = reader.offset
            guard let tag = reader.readUInt32LE(), let flags = reader.readUInt32LE(),
                let storedLength = reader.readUInt64LE(), let originalLength = reader.readUInt64LE(),
                storedLength <= UInt64(reader.remaining), let content = reader.readBytes(Int(storedLength)),
                let checksum = reader.readUInt64LE()
            else {
                throw .corruption("A snapshot section runs past the trailer.", file: file, offset: at)
            }
            sectionsRead += 1
            try FormatHeader.require(
                tag == upperStateTag && state == nil,
                "Snapshot section tag \(tag) is unknown or repeated.", file: file, offset: at)
            try FormatHeader.require(
                flags & ~compressedFlag == 0, "A snapshot section sets unknown flags \(flags).",
                file: file, offset: at + 4)
            try FormatHeader.require(
                checksum == Checksum.xxh3(content), "A snapshot section's checksum does not match.",
                file: file, offset: at + sectionHeaderSize + content.count)
            if flags & compressedFlag == 0 {
                try FormatHeader.require(
                    originalLength == storedLength,
                    "An uncompressed snapshot section's lengths differ.", file: file, offset: at + 16)
                state = Array(content)
            } else {
                // LZ4 expands a block at most 255-fold; the bound keeps a bad length from
                // allocating before the block is tried.
                try FormatHeader.require(
                    originalLength >= 1 && originalLength <= storedLength * 256
                        && originalLength <= UInt64(Int32.max),
                    "A compressed snapshot section's original length \(originalLength) is impossible.",
                    file: file, offset: at + 16)
                guard
                    let decoded = LZ4Codec.decompress(
                        content, originalLength: Int(originalLength),
                        dictionary: UnsafeRawBufferPointer(start: nil, count: 0))
                else {
                    throw .corruption(
                        "A compressed snapshot section does not decompress.", file: file,
                        offset: at + sectionHeaderSize)
                }
                state = decoded
            }
        }
        try FormatHeader.require(
            sectionsRead == sectionCount,
            "The snapshot header counts \(sectionCount) sections; the file holds \(sectionsRead).",
            file: file, offset: 12)
        guard let state else {
            throw .corruption("The snapshot has no upper-state section.", file: file, offset: headerSize)
        }
        return SnapshotFile(
            coveredSequence: bytes.getUInt64LE(at: 16) ?? 0,
            createdMilliseconds: bytes.getUInt64LE(at: 24) ?? 0, upperState: state)
    }
}
