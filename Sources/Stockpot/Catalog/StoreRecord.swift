// The store record (docs/store.md, docs/changes.md): the next soup id, the last commit
// sequence and the purge horizon of the change feed.

import StockpotCore

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
        bytes.appendUInt32LE(nextSoupID)
        bytes.appendUInt64LE(lastSequence)
        bytes.appendUInt64LE(purgedThrough)
        return bytes
    }

    /// Reads a record; `nil` when the bytes are not a version-1 or version-2 store record.
    init?(decoding bytes: [UInt8]) {
        let fields = bytes.withUnsafeBytes { raw -> (UInt32, UInt64, UInt64, Bool)? in
            switch (raw.count, raw.getUInt8(at: 0)) {
            case (5, 1): raw.getUInt32LE(at: 1).map { ($0, 0, 0, true) }
            case (21, Self.version):
                raw.getUInt32LE(at: 1).flatMap { next in
                    raw.getUInt64LE(at: 5).flatMap { last in raw.getUInt64LE(at: 13).map { (next, last, $0, false) } }
                }
            default: nil
            }
        }
        guard let (nextSoupID, lastSequence, purgedThrough, isVersion1) = fields else { return nil }
        self.init(nextSoupID: nextSoupID, lastSequence: lastSequence, purgedThrough: purgedThrough)
        self.isVersion1 = isVersion1
    }

    init(nextSoupID: UInt32, lastSequence: UInt64, purgedThrough: UInt64) {
        self.nextSoupID = nextSoupID
        self.lastSequence = lastSequence
        self.purgedThrough = purgedThrough
    }
}
