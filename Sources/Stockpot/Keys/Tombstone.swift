// Tombstones and soup events (docs/changes.md): what the change feed reports for an entry
// that was deleted or a soup that was cleared or removed, kept in key space 0 under their
// sequence until purged.

import StockpotCore

/// A deleted entry, or a cleared or removed soup, as the engine stores it.
struct Tombstone: Sendable, Hashable {
    enum Kind: UInt8, Sendable {
        case entryDeleted = 1
        case soupCleared = 2
        case soupRemoved = 3

        /// How the change feed names it.
        var operation: Change.Operation {
            switch self {
            case .entryDeleted: .delete
            case .soupCleared: .clear
            case .soupRemoved: .removeSoup
            }
        }

        /// The kind the feed's `operation` stands for (`upsert` has none: nil).
        init?(_ operation: Change.Operation) {
            switch operation {
            case .upsert: return nil
            case .delete: self = .entryDeleted
            case .clear: self = .soupCleared
            case .removeSoup: self = .soupRemoved
            }
        }
    }

    var sequence: UInt64
    var kind: Kind
    var soupID: UInt32
    var soupName: String
    /// The deleted entry's id; 0 for a soup event.
    var entryID: Int64
    /// When it happened, ms since the epoch (for retention).
    var time: Int64
    /// Compact JSON of the deleted entry's key value (docs/changes.md), if it had one.
    var key: [UInt8]?

    static let version: UInt8 = 1

    /// The value: version, kind, soup id, entry id, time, name, key (see docs/changes.md).
    func encoded() -> [UInt8] {
        let name = Array(soupName.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(30 + name.count + (key?.count ?? 0))
        bytes.appendUInt8(Self.version)
        bytes.appendUInt8(kind.rawValue)
        bytes.appendUInt32LE(soupID)
        bytes.appendUInt64LE(UInt64(bitPattern: entryID))
        bytes.appendUInt64LE(UInt64(bitPattern: time))
        bytes.appendUInt16LE(UInt16(name.count))
        bytes += name
        bytes.appendUInt32LE(UInt32(key?.count ?? 0))
        if let key { bytes += key }
        return bytes
    }

    /// Reads the value of tombstone key `sequence`; `nil` when it does not decode.
    init?(sequence: UInt64, decoding bytes: [UInt8]) {
        let decoded = bytes.withUnsafeBytes { raw -> Tombstone? in
            var reader = ByteReader(raw)
            guard reader.readUInt8() == Self.version, let kindByte = reader.readUInt8(), let kind = Kind(rawValue: kindByte),
                let soupID = reader.readUInt32LE(), let entryID = reader.readUInt64LE(), let time = reader.readUInt64LE(),
                let nameLength = reader.readUInt16LE(), let name = reader.readBytes(Int(nameLength)),
                let soupName = String(validating: name, as: UTF8.self),
                let keyLength = reader.readUInt32LE(), let key = reader.readBytes(Int(keyLength)), reader.isAtEnd
            else { return nil }
            return Tombstone(
                sequence: sequence, kind: kind, soupID: soupID, soupName: soupName, entryID: Int64(bitPattern: entryID),
                time: Int64(bitPattern: time), key: key.isEmpty ? nil : Array(key))
        }
        guard let decoded else { return nil }
        self = decoded
    }

    init(sequence: UInt64, kind: Kind, soupID: UInt32, soupName: String, entryID: Int64, time: Int64, key: [UInt8]?) {
        self.sequence = sequence
        self.kind = kind
        self.soupID = soupID
        self.soupName = soupName
        self.entryID = entryID
        self.time = time
        self.key = key
    }
}
