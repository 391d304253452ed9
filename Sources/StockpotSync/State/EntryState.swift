// What the store remembers of one synced entry (docs/sync.md, "Sync state in the store"):
// the server version its content is based on, the content hash of that version, and flags.

import StockpotJSON

/// The sync state of one entry, one document of the sync soup.
package struct EntryState: Sendable, Equatable {
    /// The entry's global key.
    package var key: String
    /// The server version the local content was last in step with (0: never on the server).
    package var baseVersion: Int64
    /// The content hash of that version (``DocumentContent/hash(_:)``); 0 for a tombstone.
    package var contentHash: Int64
    /// Whether that version is a tombstone.
    package var deleted: Bool
    /// Whether a local change awaits a conflict's resolution (policy `fail`, or a race lost).
    package var pending: Bool
    /// The entry id of this state's document in the sync soup, when it was read from there:
    /// a write replaces it by id, without looking the key up.
    package var stateEntryID: Int64?

    package init(key: String, baseVersion: Int64, contentHash: Int64, deleted: Bool, pending: Bool = false) {
        self.key = key
        self.baseVersion = baseVersion
        self.contentHash = contentHash
        self.deleted = deleted
        self.pending = pending
    }

    /// The document of this state in the sync soup.
    func document(soup: String) -> JSONValue {
        var object = JSONObject([
            (SyncStateStore.lookupPath, .string(SyncStateStore.entryLookup(soup: soup, key: key))),
            ("soup", .string(soup)), ("key", .string(key)),
            ("base", .integer(baseVersion)), ("hash", .integer(contentHash)), ("deleted", .bool(deleted)),
            (SyncStateStore.pendingPath, pending ? .string(soup) : .null),
        ])
        if let stateEntryID { object["_soupEntryId"] = .integer(stateEntryID) }
        return .object(object)
    }

    /// The state a sync soup document holds; nil when it is not one.
    init?(document: JSONValue) {
        guard case .object(let object) = document, case .string(let key)? = object["key"],
            case .integer(let base)? = object["base"], case .integer(let hash)? = object["hash"],
            case .bool(let deleted)? = object["deleted"]
        else { return nil }
        self.init(key: key, baseVersion: base, contentHash: hash, deleted: deleted, pending: object[SyncStateStore.pendingPath]?.stringValue != nil)
        stateEntryID = object["_soupEntryId"]?.integerValue
    }
}
