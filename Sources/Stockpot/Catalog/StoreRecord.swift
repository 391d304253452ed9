// The store record (docs/store.md, docs/changes.md): the next soup id, the last commit
// sequence and the purge horizon of the change feed.

/// The store-wide catalog record, key `00000000 'S'`.
struct StoreRecord: Sendable, Hashable {
    /// The id the next registered soup gets.
    var nextSoupID: UInt32
    /// The sequence of the last commit.
    var lastSequence: UInt64
    /// Tombstones at or below this sequence have been purged.
    var purgedThrough: UInt64
    /// Whether the record was read from version 1 (a store written before sequences).
    private(set) var isVersion1 = false

    static let version: UInt8 = 2

    /// `02`, then the next soup id (u32), the last sequence and purged-through (u64), all
    /// little-endian.
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = [Self.version]
        withUnsafeBytes(of: nextSoupID.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: lastSequence.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: purgedThrough.littleEndian) { bytes += $0 }
        return bytes
    }

    /// Reads a record; `nil` when the bytes are not a version-1 or version-2 store record.
    init?(decoding bytes: [UInt8]) {
        func number<T: FixedWidthInteger>(_ range: Range<Int>) -> T {
            bytes[range].reversed().reduce(T.zero) { $0 << 8 | T($1) }
        }
        switch (bytes.count, bytes.first) {
        case (5, 1):
            self.init(nextSoupID: number(1..<5), lastSequence: 0, purgedThrough: 0)
            isVersion1 = true
        case (21, Self.version):
            self.init(nextSoupID: number(1..<5), lastSequence: number(5..<13), purgedThrough: number(13..<21))
        default:
            return nil
        }
    }

    init(nextSoupID: UInt32, lastSequence: UInt64, purgedThrough: UInt64) {
        self.nextSoupID = nextSoupID
        self.lastSequence = lastSequence
        self.purgedThrough = purgedThrough
    }
}
