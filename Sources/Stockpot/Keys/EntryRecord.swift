// The engine value of one soup entry (docs/store.md, docs/changes.md): the document as
// compact UTF-8 JSON, then a trailer of the creation time, the sequence of the entry's last
// change and a version byte. The trailer comes last so that reading a document is a
// truncation of the value the engine returns, not a copy.

import StockpotCore

/// An entry as the engine stores it.
struct EntryRecord: Sendable, Hashable {
    /// Milliseconds since the Unix epoch when the entry was first inserted.
    var created: Int64
    /// The sequence of the entry's last change; `nil` for a version-1 record, whose sequence
    /// is derived from its soup's legacy base (``sequence(legacyBase:id:)``).
    var storedSequence: UInt64?
    /// The document, compact JSON, `_soupEntryId` and `_soupLastModifiedDate` included.
    var document: [UInt8]

    static let version: UInt8 = 2
    static let trailerSize = 17
    static let version1: UInt8 = 1
    static let version1TrailerSize = 9

    /// The engine value: document, created (i64 little-endian), sequence (u64 little-endian),
    /// version. Always version 2.
    func encoded() -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(document.count + Self.trailerSize)
        bytes += document
        Self.appendTrailer(created: created, sequence: storedSequence ?? 0, to: &bytes)
        return bytes
    }

    /// Appends a version-2 trailer.
    static func appendTrailer(created: Int64, sequence: UInt64, to bytes: inout [UInt8]) {
        bytes.appendUInt64LE(UInt64(bitPattern: created))
        bytes.appendUInt64LE(sequence)
        bytes.appendUInt8(version)
    }

    /// The entry's sequence: the stored one, or for a version-1 record `legacyBase + id`.
    ///
    /// - Throws: `corruption` for a version-1 record in a soup without a legacy base.
    func sequence(legacyBase: UInt64?, id: Int64, soupName: String) throws(StockpotError) -> UInt64 {
        try Self.sequence(stored: storedSequence, legacyBase: legacyBase, id: id, soupName: soupName)
    }

    static func sequence(stored: UInt64?, legacyBase: UInt64?, id: Int64, soupName: String) throws(StockpotError) -> UInt64 {
        if let stored { return stored }
        guard let legacyBase else {
            throw StockpotError(
                .corruption, "Entry \(id) of soup \"\(soupName)\" has a version-1 record, but the soup was made after the upgrade to version 2.")
        }
        return legacyBase &+ UInt64(bitPattern: id)
    }

    /// Reads an engine value (taking it over: the document is the value, truncated); `nil`
    /// when it is not a version-1 or version-2 entry record.
    init?(decoding value: consuming [UInt8]) {
        var bytes = value
        guard let trailer = Trailer(bytes[...]) else { return nil }
        created = trailer.created
        storedSequence = trailer.sequence
        bytes.removeLast(trailer.size)
        document = bytes
    }

    init(created: Int64, sequence: UInt64, document: [UInt8]) {
        self.created = created
        self.storedSequence = sequence
        self.document = document
    }

    /// The trailer of a stored value.
    struct Trailer {
        var created: Int64
        var sequence: UInt64?
        var size: Int

        init?(_ value: ArraySlice<UInt8>) {
            let read = value.withUnsafeBytes { raw -> (Int64, UInt64?, Int)? in
                let end = raw.count - 1
                switch raw.getUInt8(at: end) {
                case EntryRecord.version?:
                    guard let created = raw.getUInt64LE(at: end - 16), let sequence = raw.getUInt64LE(at: end - 8) else { return nil }
                    return (Int64(bitPattern: created), sequence, EntryRecord.trailerSize)
                case EntryRecord.version1?:
                    guard let created = raw.getUInt64LE(at: end - 8) else { return nil }
                    return (Int64(bitPattern: created), nil, EntryRecord.version1TrailerSize)
                default:
                    return nil
                }
            }
            guard let (created, sequence, size) = read else { return nil }
            (self.created, self.sequence, self.size) = (created, sequence, size)
        }
    }
}

/// An entry read as part of a batch: its document is a slice of a buffer the batch's entries
/// share (see `StoreState.storedEntrySlices`), so a page of rows is one allocation.
struct EntryRecordSlice: Sendable {
    /// Milliseconds since the Unix epoch when the entry was first inserted.
    var created: Int64
    /// As ``EntryRecord/storedSequence``.
    var storedSequence: UInt64?
    /// The document, compact JSON, in its shared buffer.
    var document: ArraySlice<UInt8>

    /// Reads an engine value (see ``EntryRecord``); `nil` when it is not an entry record.
    init?(decoding value: ArraySlice<UInt8>) {
        guard let trailer = EntryRecord.Trailer(value) else { return nil }
        created = trailer.created
        storedSequence = trailer.sequence
        document = value[value.startIndex..<value.endIndex - trailer.size]
    }

    /// A record read on its own, as a slice of its whole document.
    init(_ record: EntryRecord) {
        created = record.created
        storedSequence = record.storedSequence
        document = record.document[...]
    }
}
