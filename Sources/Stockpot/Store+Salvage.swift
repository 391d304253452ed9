// The store half of `stockpot salvage`: the engine's salvaged keys and values read as soups
// and entries (docs/store.md, "Keys and values in the engine"), entries whose soup record was
// lost kept in placeholder soups, and every loss named by soup and entry id where known.

import StockpotJSON
import StockpotStorage

/// A soup as salvage found it: its catalog facts and its readable entries, in id order.
package struct SalvagedSoup: Sendable {
    package var description: SoupDescription
    package var entries: [RestoredEntry]
    /// For entries whose soup's catalog record was lost: the soup's internal id. They are
    /// kept in a placeholder soup (``placeholderName(forSoupID:)``, indexed on
    /// `_soupEntryId` only) rather than lost with the record.
    package var lostSoupID: UInt32? = nil

    /// The name of the soup that keeps the entries of soup id `soupID`, whose name was lost.
    package static func placeholderName(forSoupID soupID: UInt32) -> String {
        "lost-soup-\(soupID)"
    }
}

/// Something salvage could not save, in the store's terms.
package struct SalvagedLoss: Sendable, CustomStringConvertible {
    /// The soup's name, when its catalog record was read; else nil.
    package var soup: String?
    /// The soup's internal id, when the key tells it.
    package var soupID: UInt32?
    /// The entry id, when the key tells it.
    package var entryID: Int64?
    /// The file and offset (and length) of the damage.
    package var file: String
    package var offset: Int?
    package var length: Int?
    package var reason: String

    package var description: String {
        var what: String
        switch (soup, soupID, entryID) {
        case (let name?, _, let id?): what = "soup \"\(name)\" entry \(id)"
        case (nil, let soupID?, let id?): what = "entry \(id) of unknown soup id \(soupID)"
        case (let name?, _, nil): what = "soup \"\(name)\" catalog record"
        case (nil, let soupID?, nil): what = "catalog record of soup id \(soupID)"
        default: what = "unknown records"
        }
        var place = file
        if let offset { place += " at byte \(offset)" }
        if let length { place += " (\(length) bytes)" }
        return "\(what): \(place): \(reason)"
    }
}

/// A damaged store's readable contents.
package struct StoreSalvage: Sendable {
    package var soups: [SalvagedSoup] = []
    package var losses: [SalvagedLoss] = []
    /// What the engine-level read covered.
    package var segments = 0
    package var recordsRead = 0
    package var bytesRead = 0
    /// The readable tombstones, in sequence order, and the change feed's state: the store
    /// record's last sequence and purge horizon (0 when it was lost), raised to cover every
    /// sequence salvaged.
    package var tombstones: [TombstoneDescription] = []
    package var lastSequence: UInt64 = 0
    package var purgedThrough: UInt64 = 0
}

extension Store {
    /// Reads every readable soup and entry of the (closed, possibly damaged) store in
    /// `directory` without opening it or changing a file.
    ///
    /// A soup's id high-water mark is the larger of its newest readable catalog record's and
    /// one past its highest readable entry id, so salvaged ids are never handed out again.
    ///
    /// An encrypted store is read with the key `encryption` gives: what does not authenticate
    /// is a loss, never guessed at.
    ///
    /// - Throws: `store_locked`, `io_error`; `key_required`, `wrong_key`, `not_encrypted`.
    package static func salvage(directory: String, encryption: StoreEncryption? = nil) throws(StockpotError) -> StoreSalvage {
        let storage: StorageSalvage
        do {
            storage = try EngineSalvager.salvage(directory: directory, encryption: encryption)
        } catch {
            throw StockpotError(error)
        }
        var result = StoreSalvage(segments: storage.segments, recordsRead: storage.recordsRead, bytesRead: storage.bytesRead)
        var catalog: [UInt32: SoupRecord] = [:]
        var entries: [UInt32: [RestoredEntry]] = [:]
        var places: [UInt32: [Int64: (String, Int)]] = [:]
        for record in storage.records {
            if record.key == StoreKeys.storeRecord {
                if let store = StoreRecord(decoding: record.value) {
                    result.lastSequence = max(result.lastSequence, store.lastSequence)
                    result.purgedThrough = max(result.purgedThrough, store.purgedThrough)
                }
                continue
            }
            if let sequence = StoreKeys.sequence(ofTombstoneKey: record.key) {
                if let tombstone = Tombstone(sequence: sequence, decoding: record.value) {
                    result.tombstones.append(TombstoneDescription(tombstone))
                    result.lastSequence = max(result.lastSequence, sequence)
                } else {
                    result.losses.append(
                        SalvagedLoss(file: record.file, offset: record.offset, reason: "the tombstone of sequence \(sequence) does not decode"))
                }
                continue
            }
            if let soupID = StoreKeys.soupID(ofCatalogKey: record.key) {
                if let soup = SoupRecord(decoding: record.value), soup.id == soupID {
                    catalog[soupID] = soup
                } else {
                    result.losses.append(
                        SalvagedLoss(
                            soupID: soupID, file: record.file, offset: record.offset, reason: "the catalog record does not decode"))
                }
            } else if let (soupID, id) = StoreKeys.entryID(of: record.key) {
                guard let entry = EntryRecord(decoding: record.value) else {
                    result.losses.append(
                        SalvagedLoss(
                            soupID: soupID, entryID: id, file: record.file, offset: record.offset, reason: "the entry record has an unknown layout"))
                    continue
                }
                guard let scan = try? SystemField.inspect(entry.document), scan.isObject,
                    case .integer(let lastModified)? = scan.lastModified
                else {
                    result.losses.append(
                        SalvagedLoss(
                            soupID: soupID, entryID: id, file: record.file, offset: record.offset,
                            reason: "the document is not a readable JSON object"))
                    continue
                }
                entries[soupID, default: []].append(
                    RestoredEntry(
                        id: id, created: entry.created, lastModified: lastModified, document: entry.document,
                        sequence: entry.storedSequence))
                places[soupID, default: [:]][id] = (record.file, record.offset)
            }
        }
        for loss in storage.losses {
            var salvaged = SalvagedLoss(file: loss.file, offset: loss.offset, length: loss.length, reason: loss.reason)
            if let key = loss.key {
                if let (soupID, id) = StoreKeys.entryID(of: key) {
                    salvaged.soupID = soupID
                    salvaged.entryID = id
                } else if let soupID = StoreKeys.soupID(ofCatalogKey: key) {
                    salvaged.soupID = soupID
                }
            }
            result.losses.append(salvaged)
        }
        for index in result.losses.indices {
            if let soupID = result.losses[index].soupID { result.losses[index].soup = catalog[soupID]?.name }
        }
        // Version-1 records take their sequence from their soup's legacy base, when the
        // catalog record that holds it was read; otherwise the new store numbers them.
        for (soupID, list) in entries {
            guard let base = catalog[soupID]?.legacySequenceBase else { continue }
            entries[soupID] = list.map { entry in
                var entry = entry
                if entry.sequence == nil { entry.sequence = base &+ UInt64(bitPattern: entry.id) }
                return entry
            }
        }
        result.tombstones.sort { $0.sequence < $1.sequence }
        // Tombstones the purge horizon covers cannot be restored; the horizon stays.
        result.tombstones.removeAll { $0.sequence <= result.purgedThrough }
        for list in entries.values {
            for entry in list { result.lastSequence = max(result.lastSequence, entry.sequence ?? 0) }
        }
        for record in catalog.values.sorted(by: { $0.name.utf8Compare($1.name) < 0 }) {
            let soupEntries = (entries[record.id] ?? []).sorted { $0.id < $1.id }
            let highest = soupEntries.last?.id ?? 0
            let description = SoupDescription(
                name: record.name, specs: record.specs, nextEntryID: max(record.nextEntryID, highest + 1), count: soupEntries.count)
            result.soups.append(SalvagedSoup(description: description, entries: soupEntries))
        }
        // Entries whose soup's catalog record (its name and specs) was lost are kept, in a
        // placeholder soup per lost soup id, rather than lost with it.
        var names = Set(catalog.values.map(\.name))
        for (soupID, soupEntries) in entries.sorted(by: { $0.key < $1.key }) where catalog[soupID] == nil {
            var name = SalvagedSoup.placeholderName(forSoupID: soupID)
            var suffix = 2
            while names.contains(name) {
                name = SalvagedSoup.placeholderName(forSoupID: soupID) + "-\(suffix)"
                suffix += 1
            }
            names.insert(name)
            let sorted = soupEntries.sorted { $0.id < $1.id }
            let description = SoupDescription(
                name: name, specs: [IndexSpec(path: SystemField.entryID, type: .integer)],
                nextEntryID: (sorted.last?.id ?? 0) + 1, count: sorted.count)
            result.soups.append(SalvagedSoup(description: description, entries: sorted, lostSoupID: soupID))
        }
        return result
    }
}
