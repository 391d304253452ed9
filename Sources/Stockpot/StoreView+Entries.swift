// Reading a whole soup from one view, for `stockpot dump` and `stockpot verify`: its catalog
// facts (specs, id high-water mark) and every entry in id order with its creation date and
// sequence; and every tombstone, for the dump.

import StockpotStorage

/// What the catalog says about one soup, as a dump records it.
package struct SoupDescription: Sendable, Hashable {
    /// The soup's name.
    package var name: String
    /// Its index specs, in registration order.
    package var specs: [IndexSpec]
    /// The id the next inserted entry gets.
    package var nextEntryID: Int64
    /// The number of entries.
    package var count: Int
    /// The external id path the soup's tombstones take their keys from (docs/changes.md).
    package var externalIdPath: String?

    /// Creates a description.
    package init(name: String, specs: [IndexSpec], nextEntryID: Int64, count: Int, externalIdPath: String? = nil) {
        self.name = name
        self.specs = specs
        self.nextEntryID = nextEntryID
        self.count = count
        self.externalIdPath = externalIdPath
    }
}

extension StoreView {
    /// The catalog facts of a soup.
    ///
    /// - Throws: `soup_not_found`.
    package func describeSoup(_ name: String) throws(StockpotError) -> SoupDescription {
        let soup = try state.existingSoup(named: name)
        return SoupDescription(
            name: soup.name, specs: soup.record.specs, nextEntryID: soup.record.nextEntryID, count: soup.count,
            externalIdPath: soup.record.externalIdPath)
    }

    /// Calls `body` with every entry of a soup in ascending id order: id, creation time, the
    /// sequence of its last change and the stored document, until `body` returns `false`.
    ///
    /// - Throws: `soup_not_found`; `corruption` or `io_error` from reading; what `body` throws.
    /// - Complexity: O(n) reads, in key order.
    package func forEachEntry(
        in soupName: String, _ body: (_ id: Int64, _ created: Int64, _ sequence: UInt64, _ document: [UInt8]) throws -> Bool
    ) throws {
        let soup = try state.existingSoup(named: soupName)
        do {
            try state.view.forEach(from: StoreKeys.entriesStart(soup: soup.id)) { key, value in
                guard let (soupID, id) = StoreKeys.entryID(of: key), soupID == soup.id else { return false }
                guard let record = EntryRecord(decoding: value) else {
                    throw StockpotError(.corruption, "The record of entry \(id) of soup \"\(soup.name)\" has an unknown layout.")
                }
                let sequence = try record.sequence(legacyBase: soup.record.legacySequenceBase, id: id, soupName: soup.name)
                return try body(id, record.created, sequence, record.document)
            }
        } catch let error as StorageError {
            throw StockpotError(error)
        }
    }
}

/// A tombstone or soup event as a dump records it.
package struct TombstoneDescription: Sendable, Hashable {
    package var sequence: UInt64
    /// `delete`, `clear` or `removeSoup`.
    package var operation: Change.Operation
    package var soupName: String
    /// The deleted entry's id; 0 for a soup event.
    package var entryID: Int64
    /// When it happened, ms since the epoch.
    package var time: Int64
    /// Compact JSON of the deleted entry's key, if it had one.
    package var key: [UInt8]?

    /// Creates a description.
    package init(sequence: UInt64, operation: Change.Operation, soupName: String, entryID: Int64, time: Int64, key: [UInt8]?) {
        self.sequence = sequence
        self.operation = operation
        self.soupName = soupName
        self.entryID = entryID
        self.time = time
        self.key = key
    }
}

extension TombstoneDescription {
    /// A stored tombstone as a dump or a salvage describes it.
    init(_ tombstone: Tombstone) {
        self.init(
            sequence: tombstone.sequence, operation: tombstone.kind.operation, soupName: tombstone.soupName, entryID: tombstone.entryID,
            time: tombstone.time, key: tombstone.key)
    }
}

extension StoreView {
    /// Calls `body` with every tombstone and soup event in sequence order.
    ///
    /// - Throws: `corruption` for one that does not decode; `io_error`; what `body` throws.
    package func forEachTombstone(_ body: (TombstoneDescription) throws -> Void) throws {
        do {
            try state.view.forEach(from: StoreKeys.tombstoneStart) { key, value in
                guard let sequence = StoreKeys.sequence(ofTombstoneKey: key) else { return false }
                guard let tombstone = Tombstone(sequence: sequence, decoding: value) else {
                    throw StockpotError(.corruption, "The tombstone of sequence \(sequence) does not decode.")
                }
                try body(TombstoneDescription(tombstone))
                return true
            }
        } catch let error as StorageError {
            throw StockpotError(error)
        }
    }
}
