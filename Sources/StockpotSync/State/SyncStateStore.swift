// The sync soup `__stockpot_sync` (docs/sync.md, "Sync state in the store"): entry states,
// soup cursors and the device id, read and written inside the caller's store transaction so
// that sync state and the data it describes commit together.

import Stockpot
import StockpotCore
import StockpotJSON

/// Something that answers query specs: a store view or a write transaction.
package protocol EntryQuerying {
    func query(_ spec: QuerySpec, in soup: String, page: Int) throws(StockpotError) -> QueryPage
    func count(_ spec: QuerySpec, in soup: String) throws(StockpotError) -> Int
    func soupExists(_ name: String) -> Bool
}

extension StoreView: EntryQuerying {}
extension WriteTransaction: EntryQuerying {}

/// Reads and writes of the sync soup.
package enum SyncStateStore {
    /// The sync soup's name.
    package static let soupName = "__stockpot_sync"
    /// The unique lookup string of every sync soup document.
    static let lookupPath = "sk"
    /// Set (to the soup name) on entry states awaiting a conflict's resolution.
    static let pendingPath = "pendingSoup"
    static let separator = "\u{1F}"

    static func entryLookup(soup: String, key: String) -> String { "e" + separator + soup + separator + key }
    static func cursorLookup(soup: String) -> String { "c" + separator + soup }
    static let deviceLookup = "device"

    /// Registers the sync soup when it is missing.
    package static func ensureSoup(_ transaction: WriteTransaction) throws(StockpotError) {
        guard !transaction.soupExists(soupName) else { return }
        try transaction.registerSoup(
            soupName,
            indexSpecs: [
                IndexSpec(path: lookupPath, type: .string, unique: true),
                IndexSpec(path: pendingPath, type: .string),
            ])
    }

    /// The states of `keys` in `soup` that exist. Many keys are read in one pass over the
    /// soup's states instead of a lookup each.
    package static func entryStates(_ reader: some EntryQuerying, soup: String, keys: Set<String>) throws(StockpotError) -> [String: EntryState] {
        var states: [String: EntryState] = [:]
        guard reader.soupExists(soupName) else { return [:] }
        if keys.count >= 256, try reader.count(entryStatesSpec(soup: soup), in: soupName) <= keys.count * 4 {
            for state in try allEntryStates(reader, soup: soup) where keys.contains(state.key) { states[state.key] = state }
            return states
        }
        for key in keys {
            if let document = try lookup(reader, entryLookup(soup: soup, key: key)), let state = EntryState(document: document) {
                states[key] = state
            }
        }
        return states
    }

    /// Every entry state of `soup`, in key order.
    package static func allEntryStates(_ reader: some EntryQuerying, soup: String, limit: Int? = nil) throws(StockpotError) -> [EntryState] {
        var spec = entryStatesSpec(soup: soup)
        if let limit {
            spec.pageSize = limit
            do {
                return try reader.query(spec, in: soupName, page: 0).rows.compactMap(EntryState.init(document:))
            } catch  where error.code == .soupNotFound {
                return []
            }
        }
        return try allRows(reader, spec).compactMap(EntryState.init(document:))
    }

    /// The range of the sync soup that holds `soup`'s entry states.
    static func entryStatesSpec(soup: String) -> QuerySpec {
        var spec = QuerySpec(queryType: .range)
        spec.indexPath = lookupPath
        spec.beginKey = .string(entryLookup(soup: soup, key: ""))
        spec.endKey = .string("e" + separator + soup + "\u{20}")
        return spec
    }

    /// The entry states of `soup` awaiting a conflict's resolution.
    package static func pendingStates(_ reader: some EntryQuerying, soup: String) throws(StockpotError) -> [EntryState] {
        var spec = QuerySpec(queryType: .exact)
        spec.indexPath = pendingPath
        spec.matchKey = .string(soup)
        return try allRows(reader, spec).compactMap(EntryState.init(document:))
    }

    /// The cursor of `soup` (a fresh one when it has none).
    package static func cursor(_ reader: some EntryQuerying, soup: String) throws(StockpotError) -> SoupCursor {
        try lookup(reader, cursorLookup(soup: soup)).flatMap(SoupCursor.init(document:)) ?? SoupCursor(soup: soup)
    }

    /// Writes entry states and, when given, a cursor. A state read from the sync soup
    /// (``EntryState/stateEntryID``) replaces its document by id; with `inserting` (no state
    /// of these entries exists) the others are inserted; otherwise they are upserted by key.
    package static func write(
        _ transaction: WriteTransaction, soup: String, states: [EntryState], cursor: SoupCursor? = nil, inserting: Bool = false
    ) throws(StockpotError) {
        var byID: [[UInt8]] = []
        var byKey: [[UInt8]] = []
        for state in states {
            if state.stateEntryID != nil || inserting {
                byID.append(state.documentBytes(soup: soup))
            } else {
                byKey.append(state.documentBytes(soup: soup))
            }
        }
        if let cursor { byKey.append(JSONWriter.write(cursor.document())) }
        if !byID.isEmpty { _ = try transaction.upsert(json: byID, into: soupName) }
        if !byKey.isEmpty { _ = try transaction.upsert(json: byKey, into: soupName, externalIdPath: lookupPath) }
    }

    /// This store's device id (made and saved on first use): the server's `device` column.
    package static func deviceID(_ transaction: WriteTransaction) throws(StockpotError) -> String {
        if case .object(let object)? = try lookup(transaction, deviceLookup), case .string(let id)? = object["device"] {
            return id
        }
        let id = UUIDv7.next()
        _ = try transaction.upsert(
            [.object(JSONObject([(lookupPath, .string(deviceLookup)), ("device", .string(id))]))], into: soupName, externalIdPath: lookupPath)
        return id
    }

    /// This store's device id without writing one; nil before the first sync.
    package static func existingDeviceID(_ reader: some EntryQuerying) throws(StockpotError) -> String? {
        guard case .object(let object)? = try lookup(reader, deviceLookup) else { return nil }
        return object["device"]?.stringValue
    }

    private static func lookup(_ reader: some EntryQuerying, _ value: String) throws(StockpotError) -> JSONValue? {
        var spec = QuerySpec(queryType: .exact)
        spec.indexPath = lookupPath
        spec.matchKey = .string(value)
        spec.pageSize = 1
        do {
            return try reader.query(spec, in: soupName, page: 0).rows.first
        } catch  where error.code == .soupNotFound {
            return nil
        }
    }

    private static func allRows(_ reader: some EntryQuerying, _ base: QuerySpec) throws(StockpotError) -> [JSONValue] {
        var spec = base
        spec.pageSize = 2_000
        var rows: [JSONValue] = []
        var page = 0
        do {
            while true {
                let found = try reader.query(spec, in: soupName, page: page).rows
                rows += found
                if found.count < spec.pageSize { return rows }
                page += 1
            }
        } catch  where error.code == .soupNotFound {
            return []
        }
    }
}
