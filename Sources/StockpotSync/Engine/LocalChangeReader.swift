// The local changes of a soup not yet on the server: candidates from the change feed since
// the soup's up sequence and the entries awaiting a conflict's resolution, kept when their
// content differs from their sync state (docs/sync.md, "What counts as unsynced").

import Stockpot
import StockpotCore
import StockpotJSON

/// Finds a soup's local entries and unsynced changes; reads only the store.
struct LocalChangeReader {
    let soup: String
    /// The soup's global key path.
    let keyPath: String

    /// One local change to send: the entry's content now (nil: deleted) and its base version.
    struct LocalChange {
        var key: String
        var baseVersion: Int64
        var document: JSONValue?
        var bytes: [UInt8]
        var contentHash: Int64
        var state: EntryState?
        /// The local entry's id when it was read (nil: no local entry).
        var entryID: Int64? = nil
    }

    /// The local changes not yet on the server, and the feed sequence they were read up to.
    func localChanges(_ view: StoreView) throws(StockpotError) -> (changes: [LocalChange], through: UInt64) {
        let cursor = try SyncStateStore.cursor(view, soup: soup)
        var candidates = Set<String>()
        // The feed hands out each changed entry's current document: no lookup needed for it.
        var documents: [String: JSONValue] = [:]
        var deletedKeys = Set<String>()
        var since = cursor.upSequence
        var fullScan = false
        do {
            while true {
                let page = try view.changes(since: since, soups: [soup], limit: 2_000)
                for change in page.changes {
                    switch change.operation {
                    case .upsert:
                        if let document = change.document, let key = key(of: document) {
                            candidates.insert(key)
                            documents[key] = document
                        }
                    case .delete:
                        if let key = change.key?.stringValue {
                            candidates.insert(key)
                            deletedKeys.insert(key)
                        }
                    case .clear, .removeSoup: fullScan = true
                    }
                }
                since = page.lastSequence
                if !page.hasMore { break }
            }
        } catch  where error.code == .changesExpired {
            fullScan = true  // tombstones purged or a restored store: look at every entry
            since = view.lastSequence
        }
        for state in try SyncStateStore.pendingStates(view, soup: soup) { candidates.insert(state.key) }
        if fullScan {
            for state in try SyncStateStore.allEntryStates(view, soup: soup) { candidates.insert(state.key) }
            var page = 0
            while true {
                let rows = try view.query(.all(pageSize: 2_000), in: soup, page: page).rows
                for row in rows { if let key = key(of: row) { candidates.insert(key) } }
                if rows.count < 2_000 { break }
                page += 1
            }
        }
        let states = try SyncStateStore.entryStates(view, soup: soup, keys: candidates)
        let keys = candidates.sorted()
        var locals: [JSONValue?] = []
        locals.reserveCapacity(keys.count)
        for key in keys {
            // A key deleted in the feed may have been given to a new entry since; look it up.
            locals.append(deletedKeys.contains(key) || documents[key] == nil ? try localEntry(view, key: key) : documents[key])
        }
        // Stripping, hashing and writing each document reads nothing shared: on every core.
        let changes = Parallel.map(count: keys.count, minimumPerPart: 256) { index -> LocalChange? in
            let state = states[keys[index]]
            let document = locals[index].map(DocumentContent.stripped)
            let contentHash = document.map(DocumentContent.hash)
            guard SyncRun.isDirty(contentHash: contentHash, state: state) else { return nil }
            return LocalChange(
                key: keys[index], baseVersion: state?.baseVersion ?? 0, document: document, bytes: document.map(DocumentContent.bytes) ?? [],
                contentHash: contentHash ?? 0, state: state, entryID: locals[index]?.objectValue?["_soupEntryId"]?.integerValue)
        }
        return (changes.compactMap { $0 }, since)
    }

    /// The local entry with global key `key`, system fields included.
    func localEntry(_ reader: some EntryQuerying, key: String) throws(StockpotError) -> JSONValue? {
        var spec = QuerySpec(queryType: .exact)
        spec.indexPath = keyPath
        spec.matchKey = .string(key)
        spec.pageSize = 1
        return try reader.query(spec, in: soup, page: 0).rows.first
    }

    /// The global key of a local document, when it has a string there.
    func key(of document: JSONValue) -> String? {
        document.project(JSONPath(keyPath))?.stringValue
    }
}
