// The store record (docs/store.md): the catalog's format version and the next soup id.

/// The store-wide catalog record, key `00000000 'S'`.
struct StoreRecord: Sendable, Hashable {
    /// The id the next registered soup gets.
    var nextSoupID: UInt32

    static let version: UInt8 = 1

    /// `01`, then the next soup id as u32 little-endian.
    func encoded() -> [UInt8] {
        [Self.version] + withUnsafeBytes(of: nextSoupID.littleEndian) { Array($0) }
    }

    /// Reads a record; `nil` when the bytes are not a version-1 store record.
    init?(decoding bytes: [UInt8]) {
        guard bytes.count == 5, bytes[0] == Self.version else { return nil }
        nextSoupID = bytes[1...4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    init(nextSoupID: UInt32) {
        self.nextSoupID = nextSoupID
    }
}
