// Writes for `stockpot restore` and `stockpot salvage` (docs/format/dump.md): a soup with a
// given id high-water mark, and entries with given ids, creation and modification dates. The
// store's invariants hold as for upsert: ids below the high-water mark, unique indexes, limits.

import StockpotIndex
import StockpotJSON

/// One entry as a dump or a salvage gives it: id, dates and stored document.
package struct RestoredEntry: Sendable {
    /// The entry id (`_soupEntryId`).
    package var id: Int64
    /// When it was first inserted, ms since the epoch.
    package var created: Int64
    /// `_soupLastModifiedDate`, ms since the epoch.
    package var lastModified: Int64
    /// The document as UTF-8 JSON; its `_soupEntryId` and `_soupLastModifiedDate`, where present,
    /// must equal `id` and `lastModified`.
    package var document: [UInt8]
    /// The sequence of its last change, when the source kept it (a version-2 dump); `nil`
    /// takes the store's next one.
    package var sequence: UInt64?

    /// Creates an entry.
    package init(id: Int64, created: Int64, lastModified: Int64, document: [UInt8], sequence: UInt64? = nil) {
        self.id = id
        self.created = created
        self.lastModified = lastModified
        self.document = document
        self.sequence = sequence
    }
}

extension WriteTransaction {
    /// Registers a soup that does not exist yet, with `nextEntryID` as its id high-water mark.
    ///
    /// - Throws: `invalid_soup_name` (also when the soup exists), `no_index_specs`,
    ///   `invalid_index_spec`, `limit_exceeded`; `invalid_entry` for a high-water mark below 1.
    package func restoreSoup(
        _ name: String, indexSpecs: [IndexSpec], nextEntryID: Int64, externalIdPath: String? = nil
    ) throws(StockpotError) {
        takesCommitSequence = false
        try IndexSpec.validateSoupName(name, limits: limits)
        guard state.soup(named: name) == nil else {
            throw StockpotError(.invalidSoupName, "The soup \"\(name)\" exists already.")
        }
        guard nextEntryID >= 1 else {
            throw StockpotError(.invalidEntry, "The soup \"\(name)\" has next entry id \(nextEntryID); it must be at least 1.")
        }
        try registerSoup(name, indexSpecs: indexSpecs)
        try atomically { () throws(StockpotError) in
            var soup = try state.existingSoup(named: name)
            soup.record.nextEntryID = nextEntryID
            soup.record.externalIdPath = externalIdPath
            state.put(soup)
        }
    }

    /// Writes entries with the ids and dates they are given, all or none. Every id must be new
    /// to the soup and below its high-water mark; the stored bytes are the document with its
    /// two system fields set (byte-identical when it is canonical and has them already).
    ///
    /// - Throws: `soup_not_found`; `invalid_entry` for a document that is not a JSON object,
    ///   whose system fields disagree with the entry, or an id that exists or is out of range;
    ///   `unique_violation`; `limit_exceeded`.
    package func restore(_ entries: [RestoredEntry], into soupName: String) throws(StockpotError) {
        takesCommitSequence = false
        try atomically { () throws(StockpotError) in
            var soup = try state.existingSoup(named: soupName)
            var deferred: [IndexedEntry] = []
            for entry in entries {
                let bytes = try Self.storedBytes(of: entry, soup: soup.name)
                guard entry.id >= 1, entry.id < soup.record.nextEntryID else {
                    throw StockpotError(
                        .invalidEntry,
                        "Entry \(entry.id) of soup \"\(soup.name)\" is outside 1..<\(soup.record.nextEntryID), the soup's ids.")
                }
                guard !soup.contains(entry.id) else {
                    throw StockpotError(.invalidEntry, "Entry \(entry.id) of soup \"\(soup.name)\" is given twice.")
                }
                guard bytes.count <= limits.documentBytes else {
                    throw StockpotError(
                        .limitExceeded,
                        "Entry \(entry.id) of soup \"\(soup.name)\" is \(bytes.count) bytes; the limit is \(limits.documentBytes).")
                }
                var indexed = try soup.indexedEntry(id: entry.id, document: bytes)
                indexed.sequence = try restoredSequence(entry.sequence)
                if let spec = soup.uniqueConflict(for: indexed) {
                    throw StockpotError(
                        .uniqueViolation,
                        "Entry \(entry.id) of soup \"\(soup.name)\" repeats a value at the unique path \"\(spec.path)\".")
                }
                soup.insert(indexed, deferring: &deferred)
                recordPut(
                    EntryKey(soup: soup.id, id: entry.id),
                    EntryRecord(created: entry.created, sequence: indexed.sequence, document: bytes))
            }
            soup.flush(&deferred)
            state.put(soup)
        }
    }

    /// A restored change's sequence: the one it was given, which the store's last sequence
    /// then covers, or the store's next.
    ///
    /// - Throws: `invalid_entry` for a given sequence of 0 or at or above 2^63.
    private func restoredSequence(_ given: UInt64?) throws(StockpotError) -> UInt64 {
        guard let given else { return try takeSequence() }
        guard given >= 1, given < UInt64(Int64.max) else {
            throw StockpotError(.invalidEntry, "The sequence \(given) is outside 1..<2^63.")
        }
        state.lastSequence = max(state.lastSequence, given)
        return given
    }

    /// Restores a tombstone or soup event with the sequence it was given (a version-2 dump).
    ///
    /// - Throws: `invalid_entry` for a sequence of 0 or at or above 2^63.
    package func restoreTombstone(
        sequence: UInt64, kind: Change.Operation, soupName: String, entryID: Int64, time: Int64, key: [UInt8]?
    ) throws(StockpotError) {
        takesCommitSequence = false
        try atomically { () throws(StockpotError) in
            let sequence = try restoredSequence(sequence)
            let soupID = state.soup(named: soupName)?.id ?? 0
            guard let kind = Tombstone.Kind(kind) else {
                throw StockpotError(.invalidEntry, "A tombstone cannot stand for an upsert (sequence \(sequence)).")
            }
            recordTombstone(
                Tombstone(sequence: sequence, kind: kind, soupID: soupID, soupName: soupName, entryID: entryID, time: time, key: key))
        }
    }

    /// Restores the store's last sequence and purge horizon (a version-2 dump's header): the
    /// last sequence only moves up.
    package func restoreSequenceState(lastSequence: UInt64, purgedThrough: UInt64) throws(StockpotError) {
        guard lastSequence < UInt64(Int64.max), purgedThrough <= lastSequence else {
            throw StockpotError(
                .invalidEntry, "The last sequence \(lastSequence) and purge horizon \(purgedThrough) are not a valid pair.")
        }
        takesCommitSequence = false
        try atomically { () throws(StockpotError) in
            state.lastSequence = max(state.lastSequence, lastSequence)
            state.purgedThrough = max(state.purgedThrough, purgedThrough)
        }
    }

    /// The bytes to store for `entry`: validated, system fields checked and set.
    private static func storedBytes(of entry: RestoredEntry, soup: String) throws(StockpotError) -> [UInt8] {
        let scan: JSONIntegerMembersScan
        do {
            scan = try SystemField.inspect(entry.document)
        } catch {
            throw StockpotError(.invalidEntry, "Entry \(entry.id) of soup \"\(soup)\" is not valid JSON: \(error).")
        }
        guard scan.isObject else {
            throw StockpotError(.invalidEntry, "Entry \(entry.id) of soup \"\(soup)\" is not a JSON object.")
        }
        func check(_ kind: JSONMemberKind?, _ expected: Int64, _ field: String) throws(StockpotError) {
            switch kind {
            case nil: return
            case .integer(let value)? where value == expected: return
            default:
                throw StockpotError(
                    .invalidEntry, "Entry \(entry.id) of soup \"\(soup)\" has a \(field) that is not \(expected).")
            }
        }
        try check(scan.entryID, entry.id, SystemField.entryID)
        try check(scan.lastModified, entry.lastModified, SystemField.lastModified)
        do {
            return try scan.stamped(entry.document, entryID: entry.id, lastModified: entry.lastModified)
        } catch {
            throw StockpotError(.internal, "A validated document cannot be stamped: \(error).")
        }
    }
}
