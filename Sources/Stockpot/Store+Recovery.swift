// Rebuilding the in-memory state at open (docs/store.md, "Snapshots and recovery"): the
// newest snapshot's catalog and indexes, then the keys changed after it; soups without a
// usable snapshot of their indexes are built from all their entries in bulk.

import StockpotIndex
import StockpotStorage
import Synchronization

/// The store snapshot as decoded on another thread during the engine's open: the bytes it
/// was decoded from, and the soups or the error.
final class DecodedSnapshot: Sendable {
    let result = Mutex<([UInt8], Result<StoreSnapshot.Decoded, StockpotError>)?>(nil)
}

/// What recovery collects while the engine replays.
private struct RecoveryWork {
    var state: StoreState
    var hadSnapshot = false
    /// Soups whose indexes are built from all their entries at the end.
    var fullBuilds: Set<UInt32> = []
    /// Without a snapshot, every entry arrives here, per soup.
    var collected: [UInt32: [IndexedEntry]] = [:]
    /// With a snapshot, the ids changed after it and their new values, per soup.
    var changedIDs: [UInt32: Set<Int64>] = [:]
    var changedEntries: [UInt32: [IndexedEntry]] = [:]
    /// Whether the store was written before sequences (a version-1 store record or
    /// snapshot, docs/changes.md), so that its soups need legacy bases.
    var legacy = false
    /// Whether the snapshot loaded is version 1: its soups have no change indexes.
    var snapshotWithoutChanges = false
    /// Whether the legacy bases have been given out.
    var basesAssigned = false
}

extension Store {
    /// The store state the engine's snapshot and log describe.
    ///
    /// - Throws: `corruption` when a snapshot or record does not decode; `io_error`.
    /// `decoded` may hold the snapshot already decoded during the engine's open; it is used
    /// when it is the snapshot recovery delivers.
    /// `upgraded` is true when the store was written before sequences: its soups were given
    /// legacy sequence bases in memory, which a writable open then writes
    /// (``writeSequenceUpgrade(_:)``).
    static func recoverState(
        _ engine: StorageEngine, decoded: DecodedSnapshot? = nil
    ) throws(StockpotError) -> (state: StoreState, upgraded: Bool) {
        var work = RecoveryWork(state: StoreState(view: engine.view()))
        do {
            try engine.recover { event in
                switch event {
                case .snapshot(let bytes, _):
                    if let (decodedBytes, result) = decoded?.result.withLock({ $0 }), decodedBytes == bytes {
                        try work.loadSnapshot(result.get())
                    } else {
                        try work.loadSnapshot(StoreSnapshot.decode(bytes))
                    }
                case .put(let key, let value): try work.put(key, value)
                case .delete(let key): work.delete(key)
                }
            }
        } catch let error as StockpotError {
            throw error
        } catch let error as StorageError {
            throw StockpotError(error)
        } catch {
            throw StockpotError(.internal, "Recovery failed: \(error).")
        }
        try work.finish()
        return (work.state, work.legacy)
    }

    /// Writes what recovery derived for a store written before sequences: every soup's
    /// catalog record with its legacy base and a version-2 store record, in one batch.
    func writeSequenceUpgrade(_ state: StoreState) throws(StockpotError) {
        var batch = WriteBatch()
        for (id, soup) in state.soups { batch.put(StoreKeys.catalog(soup: id), soup.record.encoded()) }
        let record = StoreRecord(nextSoupID: state.nextSoupID, lastSequence: state.lastSequence, purgedThrough: state.purgedThrough)
        batch.put(StoreKeys.storeRecord, record.encoded())
        do {
            try engine.write(batch)
        } catch {
            throw StockpotError(error)
        }
    }
}

extension RecoveryWork {
    mutating func loadSnapshot(_ decoded: StoreSnapshot.Decoded) {
        state.nextSoupID = decoded.nextSoupID
        state.lastSequence = decoded.lastSequence
        state.purgedThrough = decoded.purgedThrough
        for soup in decoded.soups { state.put(soup) }
        hadSnapshot = true
        snapshotWithoutChanges = decoded.version < 2
        legacy = decoded.version < 2
    }

    /// For a store written before sequences: gives each soup its legacy base (soups in
    /// ascending id, consecutive ranges of their entry ids; docs/changes.md) and sets the
    /// last sequence past them. Called before the first entry is replayed (every catalog
    /// record comes first, in key space 0) and at the end.
    mutating func assignLegacyBasesIfNeeded() {
        guard legacy, !basesAssigned else { return }
        basesAssigned = true
        var next: UInt64 = 0
        for id in state.soups.keys.sorted() {
            guard var soup = state.soups[id] else { continue }
            soup.record.legacySequenceBase = next
            next += UInt64(max(0, soup.record.nextEntryID - 1))
            state.complete(soup: id) { $0.record = soup.record }
        }
        state.lastSequence = next
    }

    mutating func put(_ key: [UInt8], _ value: [UInt8]) throws(StockpotError) {
        if key == StoreKeys.storeRecord {
            guard let record = StoreRecord(decoding: value) else {
                throw StockpotError(.corruption, "The store record does not decode.")
            }
            state.nextSoupID = max(state.nextSoupID, record.nextSoupID)
            if record.isVersion1 {
                legacy = true
            } else {
                legacy = false
                state.lastSequence = record.lastSequence
                state.purgedThrough = record.purgedThrough
            }
        } else if let id = StoreKeys.soupID(ofCatalogKey: key) {
            guard let record = SoupRecord(decoding: value), record.id == id else {
                throw StockpotError(.corruption, "The catalog record of soup id \(id) does not decode.")
            }
            if var known = state.soups[id], known.record.specs == record.specs, !fullBuilds.contains(id) {
                known.record = record  // only the id high-water mark moved
                state.put(known)
            } else {
                // New since the snapshot, or altered (an alterSoup the snapshot predates).
                let soup = SoupState(record: record)
                try soup.checkIndexKinds()
                state.put(soup)
                fullBuilds.insert(id)
            }
        } else if let (soupID, id) = StoreKeys.entryID(of: key) {
            // Entries of a soup the catalog does not know cannot exist (a soup's removal
            // deletes them in the same batch); skip them rather than invent a soup.
            assignLegacyBasesIfNeeded()
            guard let soup = state.soups[soupID] else { return }
            guard let record = EntryRecord(decoding: value) else {
                throw StockpotError(.corruption, "The record of entry \(id) of soup \"\(soup.name)\" does not decode.")
            }
            let entry = try soup.indexedEntry(id: id, record: record)
            if !hadSnapshot {
                collected[soupID, default: []].append(entry)
            } else if !fullBuilds.contains(soupID) {
                changedIDs[soupID, default: []].insert(id)
                changedEntries[soupID, default: []].append(entry)
            }
        }
    }

    mutating func delete(_ key: [UInt8]) {
        if let id = StoreKeys.soupID(ofCatalogKey: key) {
            state.remove(soup: id)
            fullBuilds.remove(id)
        } else if let (soupID, id) = StoreKeys.entryID(of: key), !fullBuilds.contains(soupID) {
            changedIDs[soupID, default: []].insert(id)
        }
    }

    /// Applies what was collected: bulk builds, then the changes after the snapshot.
    mutating func finish() throws(StockpotError) {
        assignLegacyBasesIfNeeded()
        if snapshotWithoutChanges {
            // A version-1 snapshot's entries are all version-1 records (their sequences are
            // derived); the entries replayed after it are applied below as usual.
            for id in Array(state.soups.keys) where !fullBuilds.contains(id) {
                state.complete(soup: id) { soup in
                    let base = soup.record.legacySequenceBase ?? 0
                    var entries: [IndexEntry] = []
                    entries.reserveCapacity(soup.count)
                    soup.entryIDs.forEach { entry in
                        entries.append(IndexEntry(value: SoupState.changeValue(base &+ UInt64(bitPattern: entry.id)), id: entry.id))
                        return true
                    }
                    soup.changes = OrderedIndex(entries: entries)
                }
            }
        }
        for soupID in fullBuilds {
            guard var soup = state.soups[soupID] else { continue }
            let entries = hadSnapshot ? try scanEntries(of: soup) : collected[soupID] ?? []
            soup.rebuild(from: entries)
            state.put(soup)
        }
        if !hadSnapshot {
            // Every soup is built from its entries, including those the catalog replay
            // did not mark (there are none without a snapshot, but be exact).
            for (soupID, entries) in collected where !fullBuilds.contains(soupID) {
                guard var soup = state.soups[soupID] else { continue }
                soup.rebuild(from: entries)
                state.put(soup)
            }
            return
        }
        for (soupID, ids) in changedIDs where !fullBuilds.contains(soupID) {
            guard var soup = state.soups[soupID] else { continue }
            soup.removeFromIDIndexes(ids)
            for position in soup.indexes.indices { soup.indexes[position].remove(ids: ids) }
            var deferred: [IndexedEntry] = []
            for entry in changedEntries[soupID] ?? [] { soup.insert(entry, deferring: &deferred) }
            soup.flush(&deferred)
            state.put(soup)
        }
    }

    /// Every entry of `soup` in the engine, with its index values.
    private func scanEntries(of soup: SoupState) throws(StockpotError) -> [IndexedEntry] {
        var entries: [IndexedEntry] = []
        do {
            try state.view.forEach(from: StoreKeys.entriesStart(soup: soup.id)) { key, value in
                guard let (soupID, id) = StoreKeys.entryID(of: key), soupID == soup.id else { return false }
                guard let record = EntryRecord(decoding: value) else {
                    throw StockpotError(.corruption, "The record of entry \(id) of soup \"\(soup.name)\" does not decode.")
                }
                entries.append(try soup.indexedEntry(id: id, record: record))
                return true
            }
        } catch let error as StockpotError {
            throw error
        } catch let error as StorageError {
            throw StockpotError(error)
        } catch {
            throw StockpotError(.internal, "Reading the entries of soup \"\(soup.name)\" failed: \(error).")
        }
        return entries
    }
}
