// The entries of a hint file kept as the file lists them (docs/format/hint.md), for the active
// segment: a segment of small records would otherwise hold a `HintEntry` and a separate key
// array per record (about 100 bytes each) until it is sealed, where encoded entries take
// 24 bytes plus the key.

import StockpotCore

/// Hint entries encoded back to back in hint-file entry layout, ready to be framed as a file.
package struct EncodedHints: Sendable {
    /// The entries, each `HintFormat.entryFixedSize` bytes plus its key.
    package private(set) var bytes: [UInt8] = []
    /// How many entries `bytes` holds.
    package private(set) var count = 0

    /// No entries.
    package init() {}

    /// The entries of `entries`, in order.
    package init(_ entries: [HintEntry]) {
        bytes.reserveCapacity(entries.reduce(0) { $0 + HintFormat.entryFixedSize + $1.key.count })
        for entry in entries {
            append(
                tag: entry.tag, flags: entry.flags, key: entry.key, offset: entry.offset,
                recordLength: entry.recordLength, sequence: entry.sequence, originalLength: entry.originalLength)
        }
    }

    /// Entries already encoded: `count` of them in `bytes`.
    ///
    /// - Precondition: `bytes` holds exactly `count` entries (``HintFormat`` checks a file made
    ///   from them before it is written, and a mismatch is then reported, not trapped).
    package init(encoded bytes: [UInt8], count: Int) {
        self.bytes = bytes
        self.count = count
    }

    /// Appends the entries of `other` after these.
    package mutating func append(contentsOf other: EncodedHints) {
        bytes.append(contentsOf: other.bytes)
        count += other.count
    }

    /// Room for `byteCount` bytes of entries, to avoid regrowing.
    package mutating func reserveCapacity(_ byteCount: Int) {
        bytes.reserveCapacity(byteCount)
    }

    /// Appends one record's entry.
    ///
    /// - Precondition: the fields fit the entry's sizes (key at most 65,535 bytes, offset and
    ///   lengths within 32 bits), as every record the engine writes does.
    package mutating func append(
        tag: RecordTag, flags: RecordFlags, key: [UInt8], offset: Int, recordLength: Int,
        sequence: UInt64, originalLength: Int
    ) {
        precondition(
            key.count <= RecordCodec.maximumKeyLength && offset >= 0 && offset <= Int(UInt32.max)
                && recordLength >= 0 && recordLength <= Int(UInt32.max) && originalLength >= 0
                && originalLength <= Int(UInt32.max),
            "A hint entry's fields do not fit their sizes.")
        bytes.appendUInt8(tag.rawValue)
        bytes.appendUInt8(flags.rawValue)
        bytes.appendUInt16LE(UInt16(key.count))
        bytes.appendUInt32LE(UInt32(offset))
        bytes.appendUInt32LE(UInt32(recordLength))
        bytes.appendUInt64LE(sequence)
        bytes.appendUInt32LE(UInt32(originalLength))
        bytes.append(contentsOf: key)
        count += 1
    }

    /// Drops every entry and the buffer's memory.
    package mutating func removeAll() {
        bytes = []
        count = 0
    }
}
