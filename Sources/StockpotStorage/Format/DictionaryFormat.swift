// Encodes and decodes an LZ4 dictionary file: 40-byte header (id, key space, lengths, checksums), content.
// Format: docs/format/dictionary.md.

import StockpotCore

/// The dictionary file codec. Stateless; safe from any thread.
package enum DictionaryFormat {
    /// The size of the header; the content starts here.
    package static let headerSize = 40
    /// The longest content a dictionary holds (LZ4 uses at most the last 64 KiB).
    package static let maximumContentLength = 65_536

    /// Returns the dictionary file for `content`.
    ///
    /// - Precondition: `id` is not 0 and `content` is 1 ... 65,536 bytes (programmer errors).
    /// - Complexity: O(content length).
    package static func encode(id: UInt16, keySpace: UInt32, content: [UInt8]) -> [UInt8] {
        precondition(id != 0, "Dictionary id 0 means none.")
        precondition((1...maximumContentLength).contains(content.count), "Dictionary content must be 1...65536 bytes.")
        var output: [UInt8] = []
        output.reserveCapacity(headerSize + content.count)
        FormatHeader.appendMagicAndVersion(FormatHeader.dictionaryMagic, to: &output)
        output.appendUInt16LE(id)
        output.appendUInt16LE(0)
        output.appendUInt32LE(keySpace)
        output.appendUInt32LE(UInt32(content.count))
        output.appendUInt64LE(Checksum.xxh3(content))
        output.appendUInt64LE(Checksum.xxh3(output))
        output.append(contentsOf: content)
        return output
    }

    /// Decodes and checks a whole dictionary file.
    ///
    /// - Throws: `corruption` naming `file` and the offset of the bad field: a short file,
    ///   magic, version, header checksum, id 0, flags, a length over 65,536 or different from
    ///   the bytes that follow the header, or a content checksum that does not match.
    /// - Complexity: O(file length).
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, file: String
    ) throws(StorageError) -> (id: UInt16, keySpace: UInt32, content: [UInt8]) {
        try FormatHeader.verifyMagicAndVersion(
            bytes, magic: FormatHeader.dictionaryMagic, minimumLength: headerSize,
            what: "dictionary file", file: file)
        try FormatHeader.verifyChecksum(
            bytes, covering: 0..<32, storedAt: 32, what: "dictionary header", file: file)
        let id = bytes.getUInt16LE(at: 12) ?? 0
        try FormatHeader.require(id != 0, "The dictionary's id is 0.", file: file, offset: 12)
        let flags = bytes.getUInt16LE(at: 14) ?? 0
        try FormatHeader.require(flags == 0, "The dictionary sets unknown flags \(flags).", file: file, offset: 14)
        let keySpace = bytes.getUInt32LE(at: 16) ?? 0
        let length = Int(bytes.getUInt32LE(at: 20) ?? 0)
        try FormatHeader.require(
            (1...maximumContentLength).contains(length),
            "The dictionary's length \(length) is outside 1...65536.", file: file, offset: 20)
        try FormatHeader.require(
            bytes.count - headerSize == length,
            "The dictionary file holds \(bytes.count - headerSize) content bytes; its header says \(length).",
            file: file, offset: 20)
        try FormatHeader.verifyChecksum(
            bytes, covering: headerSize..<bytes.count, storedAt: 24, what: "dictionary content",
            file: file)
        return (id, keySpace, Array(UnsafeRawBufferPointer(rebasing: bytes[headerSize...])))
    }
}
