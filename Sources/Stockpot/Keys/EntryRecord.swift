// The engine value of one soup entry (docs/store.md): the document as compact UTF-8 JSON,
// then a trailer of the creation time and a version byte. The trailer comes last so that
// reading a document is a truncation of the value the engine returns, not a copy.

/// An entry as the engine stores it.
struct EntryRecord: Sendable, Hashable {
    /// Milliseconds since the Unix epoch when the entry was first inserted.
    var created: Int64
    /// The document, compact JSON, `_soupEntryId` and `_soupLastModifiedDate` included.
    var document: [UInt8]

    static let version: UInt8 = 1
    static let trailerSize = 9

    /// The engine value: document, created (i64 little-endian), version.
    func encoded() -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(document.count + Self.trailerSize)
        bytes += document
        withUnsafeBytes(of: created.littleEndian) { bytes += $0 }
        bytes.append(Self.version)
        return bytes
    }

    /// Reads an engine value (taking it over: the document is the value, truncated); `nil`
    /// when it is not a version-1 entry record.
    init?(decoding value: consuming [UInt8]) {
        var bytes = value
        guard bytes.count >= Self.trailerSize, bytes[bytes.count - 1] == Self.version else { return nil }
        var created: UInt64 = 0
        for position in (bytes.count - Self.trailerSize..<bytes.count - 1).reversed() {
            created = created << 8 | UInt64(bytes[position])
        }
        self.created = Int64(bitPattern: created)
        bytes.removeLast(Self.trailerSize)
        document = bytes
    }

    init(created: Int64, document: [UInt8]) {
        self.created = created
        self.document = document
    }
}

/// An entry read as part of a batch: its document is a slice of a buffer the batch's entries
/// share (see `StoreState.storedEntrySlices`), so a page of rows is one allocation.
struct EntryRecordSlice: Sendable {
    /// Milliseconds since the Unix epoch when the entry was first inserted.
    var created: Int64
    /// The document, compact JSON, in its shared buffer.
    var document: ArraySlice<UInt8>

    /// Reads an engine value (see ``EntryRecord``); `nil` when it is not a version-1 record.
    init?(decoding value: ArraySlice<UInt8>) {
        guard value.count >= EntryRecord.trailerSize, value[value.endIndex - 1] == EntryRecord.version else { return nil }
        var created: UInt64 = 0
        for position in (value.endIndex - EntryRecord.trailerSize..<value.endIndex - 1).reversed() {
            created = created << 8 | UInt64(value[position])
        }
        self.created = Int64(bitPattern: created)
        document = value[value.startIndex..<value.endIndex - EntryRecord.trailerSize]
    }

    /// A record read on its own, as a slice of its whole document.
    init(_ record: EntryRecord) {
        created = record.created
        document = record.document[...]
    }
}
