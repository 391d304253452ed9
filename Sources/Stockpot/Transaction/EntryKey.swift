// An entry's identity across soups, for the transaction's own-writes map.

/// A soup id and an entry id.
struct EntryKey: Hashable, Sendable {
    var soup: UInt32
    var id: Int64
}
