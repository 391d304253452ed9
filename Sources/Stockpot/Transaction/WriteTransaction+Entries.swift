// Entry operations inside a transaction: upsert (by id, by external id, or insert), retrieve
// and delete. System fields are set here; unique indexes are checked here.

import StockpotCore
import StockpotIndex
import StockpotJSON
import StockpotStorage

/// The system fields the store writes into every document.
package enum SystemField {
    package static let entryID = "_soupEntryId"
    package static let lastModified = "_soupLastModifiedDate"
    static let created = "_soupCreatedDate"
    static let soup = "_soup"
}

extension WriteTransaction {
    /// Inserts or replaces entries, all or none.
    ///
    /// An entry with `_soupEntryId` replaces that entry; with `externalIdPath`, the entry
    /// whose value at that path equals the entry's (insert when there is none); otherwise it
    /// is inserted with a new id. `_soupEntryId` and `_soupLastModifiedDate` are set by the
    /// store: replaced where the document has them, appended where it does not.
    ///
    /// - Returns: The stored documents, system fields included, in the order given.
    /// - Throws: `soup_not_found`, `invalid_entry`, `entry_not_found`,
    ///   `external_id_not_indexed`, `external_id_missing`, `external_id_not_unique`,
    ///   `unique_violation`, `limit_exceeded`.
    public func upsert(
        _ entries: [JSONValue], into soupName: String, externalIdPath: String? = nil
    ) throws(StockpotError) -> [JSONValue] {
        let incoming = entries.map { entry -> IncomingDocument? in
            if case .object(let object) = entry { return .object(object) }
            return nil
        }
        return try upsertIncoming(incoming, into: soupName, externalIdPath: externalIdPath).map { $0.value ?? .null }
    }

    /// Like ``upsert(_:into:externalIdPath:)`` for documents given as UTF-8 JSON bytes;
    /// returns the stored documents as compact UTF-8 JSON. Canonical compact JSON (what
    /// `JSONWriter` writes) is stored without building a tree.
    ///
    /// - Throws: As `upsert`, and `invalid_entry` for bytes that are not a JSON object.
    public func upsert(
        json documents: [[UInt8]], into soupName: String, externalIdPath: String? = nil
    ) throws(StockpotError) -> [[UInt8]] {
        try upsert(jsonSlices: documents.map { $0[...] }, into: soupName, externalIdPath: externalIdPath)
    }

    /// ``upsert(json:into:externalIdPath:)`` for documents that are slices, of one buffer or
    /// many: a request's entries are upserted without copying each out of its line.
    package func upsert(
        jsonSlices documents: [ArraySlice<UInt8>], into soupName: String, externalIdPath: String? = nil
    ) throws(StockpotError) -> [[UInt8]] {
        let soup = try state.existingSoup(named: soupName)  // soup_not_found before any document error
        // Checking a document needs nothing shared: a large batch is checked on every core.
        // The check also finds where the indexed paths start, for reading their values.
        let located = IncomingDocument.locatedKeys(for: soup.extractor)
        let scans = Parallel.map(count: documents.count, minimumPerPart: Self.documentsPerPart) { position in
            Result { () throws(StockpotError) in
                try IncomingDocument.scanning(documents[position], position: position, locating: located)
            }
        }
        var incoming: [IncomingDocument?] = []
        incoming.reserveCapacity(documents.count)
        for scan in scans { incoming.append(try scan.get()) }
        return try upsertIncoming(incoming, into: soupName, externalIdPath: externalIdPath).map(\.bytes)
    }

    /// The upsert of validated documents (nil: not a JSON object), all or none.
    func upsertIncoming(
        _ entries: [IncomingDocument?], into soupName: String, externalIdPath: String?
    ) throws(StockpotError) -> [(bytes: [UInt8], value: JSONValue?)] {
        var soup = try state.existingSoup(named: soupName)
        let externalSpec = try externalIdSpec(externalIdPath, in: soup)
        let entries = try generatingKeys(entries, in: soup)
        // Made once per batch: the external id path's value is read from every entry.
        let externalField = externalSpec.map { position in
            JSONFieldExtractor(fields: [IndexField(path: soup.record.specs[position].jsonPath, type: soup.record.specs[position].type)])
        }
        return try atomically { () throws(StockpotError) in
            var stored: [(bytes: [UInt8], value: JSONValue?)] = []
            stored.reserveCapacity(entries.count)
            // New entries reach batch-friendly indexes (full-text) at the end of the batch.
            var deferred: [IndexedEntry] = []
            let newCount = externalSpec == nil ? leadingNewEntryCount(entries, in: soup) : 0
            // A batch of new entries only leaves its index inserts to the commit, which runs
            // them while it writes the batch; entries after them would need the indexes.
            let unindexed = try insertNew(
                entries[..<newCount], into: &soup, stored: &stored, deferred: &deferred,
                leavingIndexes: newCount == entries.count)
            for (position, entry) in entries.enumerated().dropFirst(newCount) {
                guard let entry, entry.isObject else {
                    throw StockpotError(.invalidEntry, "Entry \(position) of the batch is not a JSON object.")
                }
                stored.append(
                    try upsertOne(
                        entry, position: position, into: &soup, external: externalSpec.map { ($0, externalField!) },
                        deferred: &deferred))
            }
            soup.flush(&deferred)
            if externalSpec != nil, let externalIdPath, soup.record.externalIdPath != externalIdPath {
                soup.record.externalIdPath = externalIdPath  // the key its tombstones keep
            }
            state.put(soup)
            if !unindexed.isEmpty { indexLater(unindexed, soup: soup.id) }
            return stored
        }
    }

    /// The spec `externalIdPath` names, nil for none (or `_soupEntryId`, the default).
    private func externalIdSpec(_ path: String?, in soup: SoupState) throws(StockpotError) -> Int? {
        guard let path, !path.utf8Equals(SystemField.entryID) else { return nil }
        guard let position = soup.specIndex(forPath: path) else {
            throw StockpotError(
                .externalIdNotIndexed, "The external id path \"\(path)\" has no index in soup \"\(soup.name)\".")
        }
        return position
    }

    private func upsertOne(
        _ entry: IncomingDocument, position: Int, into soup: inout SoupState,
        external: (spec: Int, extractor: JSONFieldExtractor)?, deferred: inout [IndexedEntry]
    ) throws(StockpotError) -> (bytes: [UInt8], value: JSONValue?) {
        let givenID = try entry.systemInteger(SystemField.entryID, position: position)
        _ = try entry.systemInteger(SystemField.lastModified, position: position)

        let id: Int64
        var previous: EntryRecord?
        if let (externalSpec, extractor) = external {
            let spec = soup.record.specs[externalSpec]
            let value = try entry.indexValue(extractor)
            guard !value.isNull else {
                throw StockpotError(
                    .externalIdMissing, "Entry \(position) of the batch has no value at the external id path \"\(spec.path)\".")
            }
            let matches = (soup.indexes[externalSpec] as? OrderedPathIndex)?.tree.ids(equalTo: value) ?? []
            guard matches.count <= 1 else {
                throw StockpotError(
                    .externalIdNotUnique,
                    "\(matches.count) entries of soup \"\(soup.name)\" have the value \(value) at \"\(spec.path)\".")
            }
            if let match = matches.first {
                id = match
                previous = try entryRecord(soup: soup.id, id: match)
            } else {
                id = try allocateID(&soup)
            }
        } else if let givenID {
            guard soup.contains(givenID), let record = try entryRecord(soup: soup.id, id: givenID) else {
                throw StockpotError(.entryNotFound, "Soup \"\(soup.name)\" has no entry \(givenID).")
            }
            id = givenID
            previous = record
        } else {
            id = try allocateID(&soup)
        }

        let stored = try entry.stamped(entryID: id, lastModified: now)
        let bytes = stored.bytes
        try Self.checkSize(bytes, entryID: id, lastModified: now, position: position, limit: limits.documentBytes)
        var indexed = try soup.indexedEntry(id: id, document: bytes)
        indexed.sequence = try takeSequence()
        if let previous {
            // The entry may be among the deferred new ones (an external id matched it).
            soup.flush(&deferred)
            let current = try soup.indexedEntry(id: id, record: previous)
            try checkUnique(indexed, current: current, in: soup)
            soup.update(current, to: indexed)
        } else {
            try checkUnique(indexed, in: soup)
            soup.insert(indexed, deferring: &deferred)
        }
        recordPut(
            EntryKey(soup: soup.id, id: id),
            EntryRecord(created: previous?.created ?? now, sequence: indexed.sequence, document: bytes))
        return stored
    }

    /// Batches are checked and prepared on every core in parts of at least this many documents.
    static let documentsPerPart = 32

    /// How many entries at the start of the batch are new entries (``IncomingDocument/isNewEntry``),
    /// or 0 when the soup's ids would run out on the way.
    private func leadingNewEntryCount(_ entries: [IncomingDocument?], in soup: SoupState) -> Int {
        let count = entries.firstIndex { entry in entry?.isNewEntry != true } ?? entries.count
        return Int64.max - soup.record.nextEntryID >= Int64(count) ? count : 0
    }

    /// Inserts new entries (see ``leadingNewEntryCount(_:in:)``) exactly as ``upsertOne``
    /// would one after the other, with the same errors in the same order; stamping them and
    /// reading their index values, which need nothing shared, is done on every core first.
    ///
    /// - Parameter leavingIndexes: When no spec is unique (so nothing can fail once every
    ///   entry is prepared), leave the entries out of the indexes and return them, for
    ///   ``indexLater(_:soup:)``.
    /// - Returns: The entries left out of the indexes; empty when they are in.
    private func insertNew(
        _ entries: ArraySlice<IncomingDocument?>, into soup: inout SoupState,
        stored: inout [(bytes: [UInt8], value: JSONValue?)], deferred: inout [IndexedEntry],
        leavingIndexes: Bool
    ) throws(StockpotError) -> [IndexedEntry] {
        let firstID = soup.record.nextEntryID
        let firstSequence = try takeSequences(entries.count)
        let (now, documentBytes, extractor, soupName) = (now, limits.documentBytes, soup.extractor, soup.name)
        let prepared = Parallel.map(count: entries.count, minimumPerPart: Self.documentsPerPart) { offset in
            Result { () throws(StockpotError) -> PreparedEntry in
                let id = firstID + Int64(offset)
                let incoming = entries[entries.startIndex + offset]!
                let document = try incoming.stamped(entryID: id, lastModified: now)
                try Self.checkSize(
                    document.bytes, entryID: id, lastModified: now, position: entries.startIndex + offset,
                    limit: documentBytes)
                let sequence = firstSequence + UInt64(offset)
                let record = EntryRecord(created: now, sequence: sequence, document: document.bytes)
                var indexed = try incoming.indexedEntry(id: id, stamped: document.bytes, extractor: extractor, soupName: soupName)
                indexed.sequence = sequence
                return PreparedEntry(stored: document, record: record, encoded: record.encoded(), indexed: indexed)
            }
        }
        reserveWrites(entries.count)
        if !soup.record.specs.contains(where: \.unique) {
            // Nothing can fail once every entry is prepared: the first error is the batch's.
            var indexed: [IndexedEntry] = []
            indexed.reserveCapacity(prepared.count)
            for result in prepared { indexed.append(try result.get().indexed) }
            if !leavingIndexes { soup.insertNew(indexed) }
            for case .success(let entry) in prepared {
                let id = try allocateID(&soup)
                assert(id == entry.indexed.id)
                recordPut(EntryKey(soup: soup.id, id: id), entry.record, encoded: entry.encoded)
                stored.append(entry.stored)
            }
            return leavingIndexes ? indexed : []
        }
        for (offset, result) in prepared.enumerated() {
            let entry = try result.get()
            let id = try allocateID(&soup)
            assert(id == firstID + Int64(offset))
            try checkUnique(entry.indexed, in: soup)
            soup.insert(entry.indexed, deferring: &deferred)
            recordPut(EntryKey(soup: soup.id, id: id), entry.record, encoded: entry.encoded)
            stored.append(entry.stored)
        }
        return []
    }

    /// A new entry made ready for ``insertNew(_:into:stored:deferred:)``.
    private struct PreparedEntry {
        /// The document with its system fields, as upsert returns it.
        var stored: (bytes: [UInt8], value: JSONValue?)
        var record: EntryRecord
        /// `record.encoded()`.
        var encoded: [UInt8]
        var indexed: IndexedEntry
    }

    /// Throws `limit_exceeded` when a document is over the document size limit. The limit is
    /// on the document the caller sent, as compact JSON without the system fields: the
    /// store's `_soupEntryId` and `_soupLastModifiedDate` never push a document over it.
    ///
    /// - Parameter bytes: The stored (stamped) document, with both system fields.
    private static func checkSize(
        _ bytes: [UInt8], entryID: Int64, lastModified: Int64, position: Int, limit: Int
    ) throws(StockpotError) {
        let size = sizeWithoutSystemFields(bytes, entryID: entryID, lastModified: lastModified)
        guard size <= limit else {
            throw StockpotError(
                .limitExceeded,
                "Entry \(position) of the batch is \(size) bytes as compact JSON (without its system fields); the limit is \(limit).")
        }
    }

    /// The compact size of a stamped document without its two system members: it holds both,
    /// each written once as `"key":integer` with one comma of its own, plus one comma between
    /// the two when they are its only members (`{}` then).
    static func sizeWithoutSystemFields(_ stamped: [UInt8], entryID: Int64, lastModified: Int64) -> Int {
        let keys = SystemField.entryID.utf8.count + SystemField.lastModified.utf8.count + 4  // quotes
        let members = keys + 2 + decimalLength(entryID) + decimalLength(lastModified)  // colons
        return max(2, stamped.count - members - 2)
    }

    /// The length of `value` written in decimal.
    private static func decimalLength(_ value: Int64) -> Int {
        var length = value < 0 ? 2 : 1
        var rest = value.magnitude
        while rest >= 10 {
            rest /= 10
            length += 1
        }
        return length
    }

    /// Throws `unique_violation` when another entry has one of `entry`'s unique values;
    /// `current` is the entry's values in the indexes when it is an update.
    private func checkUnique(_ entry: IndexedEntry, current: IndexedEntry? = nil, in soup: SoupState) throws(StockpotError) {
        guard let spec = soup.uniqueConflict(for: entry, current: current) else { return }
        throw StockpotError(
            .uniqueViolation,
            "Another entry of soup \"\(soup.name)\" already has the value \(entry.values[soup.specIndex(forPath: spec.path) ?? 0]) at the unique path \"\(spec.path)\"."
        )
    }

    /// The next entry id of `soup`, moving its high-water mark.
    private func allocateID(_ soup: inout SoupState) throws(StockpotError) -> Int64 {
        guard soup.record.nextEntryID < Int64.max else {
            throw StockpotError(.limitExceeded, "Soup \"\(soup.name)\" has used every entry id.")
        }
        defer { soup.record.nextEntryID += 1 }
        return soup.record.nextEntryID
    }

    /// The entries with these ids that exist, in the order of `ids`, as this transaction sees
    /// them.
    ///
    /// - Throws: `soup_not_found`; `corruption` or `io_error` from reading.
    public func retrieve(_ ids: [Int64], from soupName: String) throws(StockpotError) -> [JSONValue] {
        try retrieve(json: ids, from: soupName).map { bytes throws(StockpotError) in try DocumentDecoding.document(bytes) }
    }

    /// Like ``retrieve(_:from:)``, returning compact UTF-8 JSON documents.
    public func retrieve(json ids: [Int64], from soupName: String) throws(StockpotError) -> [[UInt8]] {
        let soup = try state.existingSoup(named: soupName)
        var documents: [[UInt8]] = []
        for id in ids where soup.contains(id) {
            if let record = try entryRecord(soup: soup.id, id: id) { documents.append(record.document) }
        }
        return documents
    }

    /// Deletes the entries with these ids; ids that do not exist are ignored.
    ///
    /// - Throws: `soup_not_found`; `corruption` or `io_error` from reading old values.
    public func delete(_ ids: [Int64], from soupName: String) throws(StockpotError) {
        var soup = try state.existingSoup(named: soupName)
        try atomically { () throws(StockpotError) in
            for id in ids where soup.contains(id) {
                guard let record = try entryRecord(soup: soup.id, id: id) else { continue }
                soup.remove(try soup.indexedEntry(id: id, record: record))
                recordDelete(EntryKey(soup: soup.id, id: id))
                recordTombstone(
                    Tombstone(
                        sequence: try takeSequence(), kind: .entryDeleted, soupID: soup.id, soupName: soup.name,
                        entryID: id, time: now, key: Self.keyValue(of: record.document, path: soup.keyPath)))
            }
            state.put(soup)
        }
    }
}

extension WriteTransaction {
    /// The compact JSON of `document`'s value at `path` (objects only, as json1 reads), for a
    /// tombstone's key; `nil` when there is no path, no value, or null.
    static func keyValue(of document: [UInt8], path: String?) -> [UInt8]? {
        guard let path, let value = try? DocumentDecoding.document(document) else { return nil }
        guard let key = value.projectWithoutArrays(JSONPath(path)), !key.isNull else { return nil }
        return JSONWriter.write(key)
    }
}

/// Stored documents back into values.
enum DocumentDecoding {
    /// A stored document as an object that reads its bytes only as far as the caller uses it
    /// (see `JSONObject.init(canonicalText:)`). Stored bytes are always JSONWriter's canonical
    /// text of a valid object: every write stamps them that way, and reads check them against
    /// their checksum.
    ///
    /// - Throws: `corruption` when the bytes are not even shaped like an object.
    static func document(_ bytes: [UInt8]) throws(StockpotError) -> JSONValue {
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else {
            throw StockpotError(.corruption, "A stored document is not a JSON object.")
        }
        return .object(JSONObject(canonicalText: bytes))
    }

    /// ``document(_:)`` for a document in a buffer shared with others (a query page's); the
    /// value keeps that buffer alive.
    ///
    /// - Throws: `corruption` when the bytes are not even shaped like an object.
    static func document(_ bytes: ArraySlice<UInt8>) throws(StockpotError) -> JSONValue {
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else {
            throw StockpotError(.corruption, "A stored document is not a JSON object.")
        }
        return .object(JSONObject(canonicalText: bytes))
    }
}

extension WriteTransaction {
    /// Deletes the entries of the first page of a query's results (at most `pageSize`, in
    /// query order), as SmartStore's delete by query does.
    ///
    /// - Throws: `soup_not_found`, `invalid_query`.
    public func deleteFirstPage(of spec: QuerySpec, in soupName: String) throws(StockpotError) {
        let runner = QueryRunner(
            state: state,
            reader: .closure { soup, id throws(StockpotError) in
                try self.entryRecord(soup: soup, id: id)
            })
        let (_, order) = try runner.results(of: spec, in: soupName)
        try delete(order.ids(from: 0, length: spec.pageSize), from: soupName)
    }
}
