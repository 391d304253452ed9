// Magic numbers, the format version and the checks every file header shares.
// Formats: docs/format/segment.md, blob.md, dictionary.md, hint.md, manifest.md, snapshot.md.

import StockpotCore

/// The magic number (8 bytes) and version (u32) that open every Stockpot file.
package enum FormatHeader {
    /// The version of the files that carry no store identity (blob, dictionary, snapshot),
    /// and of segments, hints and manifests written by earlier releases.
    package static let version: UInt32 = 1
    /// The version of the files that carry the store identity: segment, hint, manifest.
    package static let identityVersion: UInt32 = 2
    /// `STKPSEG\0`, segment.md.
    package static let segmentMagic: [UInt8] = [0x53, 0x54, 0x4B, 0x50, 0x53, 0x45, 0x47, 0x00]
    /// `STKPBLB\0`, blob.md.
    package static let blobMagic: [UInt8] = [0x53, 0x54, 0x4B, 0x50, 0x42, 0x4C, 0x42, 0x00]
    /// `STKPDCT\0`, dictionary.md.
    package static let dictionaryMagic: [UInt8] = [0x53, 0x54, 0x4B, 0x50, 0x44, 0x43, 0x54, 0x00]
    /// `STKPHNT\0`, hint.md.
    package static let hintMagic: [UInt8] = [0x53, 0x54, 0x4B, 0x50, 0x48, 0x4E, 0x54, 0x00]
    /// `STKPMAN\0`, manifest.md.
    package static let manifestMagic: [UInt8] = [0x53, 0x54, 0x4B, 0x50, 0x4D, 0x41, 0x4E, 0x00]
    /// `STKPSNP\0`, snapshot.md.
    package static let snapshotMagic: [UInt8] = [0x53, 0x54, 0x4B, 0x50, 0x53, 0x4E, 0x50, 0x00]

    /// Appends `magic` and `version` (1 unless given).
    static func appendMagicAndVersion(_ magic: [UInt8], version: UInt32 = version, to output: inout [UInt8]) {
        output.append(contentsOf: magic)
        output.appendUInt32LE(version)
    }

    /// Checks that `bytes` starts with `magic` and one of `versions`, and holds at least
    /// `minimumLength(version)` bytes; returns the version.
    ///
    /// - Throws: `corruption` naming `file`: a short file (offset: its length), a wrong magic
    ///   (offset 0) or a version not in `versions` (offset 8).
    static func verifyMagicAndVersion(
        _ bytes: UnsafeRawBufferPointer, magic: [UInt8], versions: [UInt32],
        minimumLength: (UInt32) -> Int, what: String, file: String
    ) throws(StorageError) -> UInt32 {
        guard bytes.count >= 12 else {
            throw .corruption(
                "The \(what) is \(bytes.count) bytes long, shorter than its header.", file: file, offset: bytes.count)
        }
        guard bytes.prefix(magic.count).elementsEqual(magic) else {
            throw .corruption("The file does not start with the \(what) magic number.", file: file, offset: 0)
        }
        let found = bytes.getUInt32LE(at: 8) ?? 0
        guard versions.contains(found) else {
            let known = versions.map(String.init).joined(separator: " and ")
            throw .corruption("The \(what) has format version \(found); this build reads version \(known).", file: file, offset: 8)
        }
        let minimum = minimumLength(found)
        guard bytes.count >= minimum else {
            throw .corruption(
                "The \(what) is \(bytes.count) bytes long, shorter than its \(minimum)-byte minimum.",
                file: file, offset: bytes.count)
        }
        return found
    }

    /// Checks that `bytes` holds at least `minimumLength` bytes and starts with `magic` and
    /// version 1.
    ///
    /// - Throws: `corruption` naming `file`: a short file (offset: its length), a wrong magic
    ///   (offset 0) or an unknown version (offset 8).
    static func verifyMagicAndVersion(
        _ bytes: UnsafeRawBufferPointer, magic: [UInt8], minimumLength: Int, what: String,
        file: String
    ) throws(StorageError) {
        guard bytes.count >= minimumLength else {
            throw .corruption(
                "The \(what) is \(bytes.count) bytes long, shorter than its \(minimumLength)-byte minimum.",
                file: file, offset: bytes.count)
        }
        guard bytes.prefix(magic.count).elementsEqual(magic) else {
            throw .corruption("The file does not start with the \(what) magic number.", file: file, offset: 0)
        }
        let found = bytes.getUInt32LE(at: 8) ?? 0
        guard found == version else {
            throw .corruption("The \(what) has format version \(found); this build reads version \(version).", file: file, offset: 8)
        }
    }

    /// Checks that the u64 stored at `offset` equals the XXH3-64 of `bytes[covered]`.
    ///
    /// - Throws: `corruption` naming `file` at `offset` when it does not (or does not fit).
    static func verifyChecksum(
        _ bytes: UnsafeRawBufferPointer, covering covered: Range<Int>, storedAt offset: Int,
        what: String, file: String
    ) throws(StorageError) {
        guard let stored = bytes.getUInt64LE(at: offset), bytes.contains(offset: covered.lowerBound, size: covered.count),
            stored == Checksum.xxh3(bytes, covered)
        else {
            throw .corruption("The \(what) checksum does not match.", file: file, offset: offset)
        }
    }

    /// Throws `corruption` with `message` at `offset` in `file` unless `condition` holds.
    @inline(__always)
    static func require(
        _ condition: Bool, _ message: @autoclosure () -> String, file: String, offset: Int
    ) throws(StorageError) {
        guard condition else { throw .corruption(message(), file: file, offset: offset) }
    }
}
