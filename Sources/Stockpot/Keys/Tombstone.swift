// Tombstones and soup events (docs/changes.md): what the change feed reports for an entry
// that was deleted or a soup that was cleared or removed, kept in key space 0 under their
// sequence until purged.

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
        var bytes: [UInt8] = [Self.version, kind.rawValue]
        bytes.reserveCapacity(30 + name.count + (key?.count ?? 0))
        withUnsafeBytes(of: soupID.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: entryID.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: time.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: UInt16(name.count).littleEndian) { bytes += $0 }
        bytes += name
        withUnsafeBytes(of: UInt32(key?.count ?? 0).littleEndian) { bytes += $0 }
        if let key { bytes += key }
        return bytes
    }

    /// Reads the value of tombstone key `sequence`; `nil` when it does not decode.
    init?(sequence: UInt64, decoding bytes: [UInt8]) {
        var position = 0
        func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, bytes.count - position >= count else { return nil }
            defer { position += count }
            return bytes[position..<position + count]
        }
        func number<T: FixedWidthInteger>(_: T.Type) -> T? {
            take(MemoryLayout<T>.size).map { $0.reversed().reduce(T.zero) { $0 << 8 | T($1) } }
        }
        guard take(1) == [Self.version], let kindByte = number(UInt8.self), let kind = Kind(rawValue: kindByte),
            let soupID = number(UInt32.self), let entryID = number(Int64.self), let time = number(Int64.self),
            let nameLength = number(UInt16.self), let name = take(Int(nameLength)),
            let soupName = String(validating: name, as: UTF8.self),
            let keyLength = number(UInt32.self), let key = take(Int(keyLength)), position == bytes.count
        else { return nil }
        self.init(
            sequence: sequence, kind: kind, soupID: soupID, soupName: soupName, entryID: entryID, time: time,
            key: key.isEmpty ? nil : Array(key))
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
