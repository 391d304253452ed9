// The engine value of one soup entry (docs/store.md): a version byte, the creation time, and
// the document as compact UTF-8 JSON with its system fields.

/// An entry as the engine stores it.
struct EntryRecord: Sendable, Hashable {
    /// Milliseconds since the Unix epoch when the entry was first inserted.
    var created: Int64
    /// The document, compact JSON, `_soupEntryId` and `_soupLastModifiedDate` included.
    var document: [UInt8]

    static let version: UInt8 = 1
    static let headerSize = 9

    /// The engine value.
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = [Self.version]
        bytes.reserveCapacity(Self.headerSize + document.count)
        withUnsafeBytes(of: created.littleEndian) { bytes += $0 }
        bytes += document
        return bytes
    }

    /// Reads an engine value; `nil` when it is not a version-1 entry record.
    init?(decoding bytes: [UInt8]) {
        guard bytes.count >= Self.headerSize, bytes[0] == Self.version else { return nil }
        var created: UInt64 = 0
        for position in (1...8).reversed() { created = created << 8 | UInt64(bytes[position]) }
        self.created = Int64(bitPattern: created)
        document = Array(bytes[Self.headerSize...])
    }

    init(created: Int64, document: [UInt8]) {
        self.created = created
        self.document = document
    }
}
