// What the store remembers of one synced entry (docs/sync.md, "Sync state in the store"):
// the server version its content is based on, the content hash of that version, and flags.

import StockpotJSON

/// The sync state of one entry, one document of the sync soup.
package struct EntryState: Sendable, Equatable {
    /// The entry's global key.
    package var key: String
    /// The server version the local content was last in step with (0: never on the server;
    /// ``purgedBase``: a row this device wrote, since deleted and purged).
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

    /// The base version of an entry whose row this device wrote in a run whose answer was
    /// lost, and which another device then deleted and the owner purged (docs/sync.md,
    /// "Receipts"). No server row has this version, and the receipt entry that matched holds
    /// another base, so the entry's next change is sent as a new key and never matches that
    /// receipt entry again.
    package static let purgedBase: Int64 = -1

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

    /// The compact JSON of ``document(soup:)``, written without building the tree (sync
    /// writes one per entry it touches).
    func documentBytes(soup: String) -> [UInt8] {
        var output: [UInt8] = [UInt8(ascii: "{")]
        output.reserveCapacity(96 + 2 * key.utf8.count + 2 * soup.utf8.count)
        func member(_ name: String) {
            if output.count > 1 { output.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(name, to: &output)
            output.append(UInt8(ascii: ":"))
        }
        member(SyncStateStore.lookupPath)
        JSONWriter.appendString(SyncStateStore.entryLookup(soup: soup, key: key), to: &output)
        member("soup")
        JSONWriter.appendString(soup, to: &output)
        member("key")
        JSONWriter.appendString(key, to: &output)
        member("base")
        JSONWriter.appendInteger(baseVersion, to: &output)
        member("hash")
        JSONWriter.appendInteger(contentHash, to: &output)
        member("deleted")
        output.append(contentsOf: (deleted ? "true" : "false").utf8)
        member(SyncStateStore.pendingPath)
        if pending { JSONWriter.appendString(soup, to: &output) } else { output.append(contentsOf: "null".utf8) }
        if let stateEntryID {
            member("_soupEntryId")
            JSONWriter.appendInteger(stateEntryID, to: &output)
        }
        output.append(UInt8(ascii: "}"))
        return output
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
