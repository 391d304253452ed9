// Sync status from the store alone: the soup's cursor, its entry states and its unsynced
// changes (the same rule sync up uses to pick what to send).

import Stockpot

extension StoreSync {
    /// The sync state of `soup` in `store`.
    static func status(of store: Store, soup: String) throws(SyncError) -> SyncStatus {
        let specs: [IndexSpec]
        do {
            specs = try store.indexSpecs(of: soup)
        } catch {
            throw SyncError(.soupNotSyncable, "The store has no soup \"\(soup)\".", soup: soup)
        }
        guard let keyPath = specs.first(where: { $0.defaultValue == .newID })?.path else {
            throw SyncError(.soupNotSyncable, "Soup \"\(soup)\" has no global key (an index spec with \"default\": \"newid\").", soup: soup)
        }
        let view = store.view()
        do {
            let cursor = try SyncStateStore.cursor(view, soup: soup)
            let reader = LocalChangeReader(soup: soup, keyPath: keyPath)
            let changes = try reader.localChanges(view).changes
            let pending = try SyncStateStore.pendingStates(view, soup: soup)
            return SyncStatus(
                soup: soup, watermark: cursor.watermark, upSequence: cursor.upSequence,
                lastDownAt: cursor.lastDownAt, lastUpAt: cursor.lastUpAt,
                unsyncedKeys: changes.map(\.key), conflictKeys: pending.map(\.key).sorted(),
                syncedEntries: try SyncStateStore.allEntryStates(view, soup: soup).count,
                deviceID: try SyncStateStore.existingDeviceID(view))
        } catch {
            throw SyncError(store: error, soup: soup)
        }
    }
}
