// One soup in memory: its catalog record, the extractor for its indexed paths, the index of
// its entry ids, its change index, and one index per spec (plus one full-text index over its
// full_text paths).

import StockpotCore
import StockpotIndex
import StockpotJSON
import StockpotStorage

/// A soup's in-memory state. A value with copy-on-write indexes: copying it is O(1).
package struct SoupState: Sendable {
    /// The fields, shared by copies until one of them is changed. A read takes several copies
    /// of its soup (the planner, the query source, the runner); each costs one reference
    /// count rather than one per array, string and index the fields hold.
    private var fields: Fields

    var record: SoupRecord {
        get { fields.record }
        _modify { yield &uniqueFields().record }
    }
    /// Reads every spec's value from a document's bytes, in spec order.
    var extractor: JSONFieldExtractor { fields.extractor }
    /// Every entry id of the soup (value and id both the entry id): counts and id order.
    var entryIDs: OrderedIndex {
        get { fields.entryIDs }
        _modify { yield &uniqueFields().entryIDs }
    }
    /// (sequence of the last change, entry id) per entry: the change feed's order
    /// (docs/changes.md).
    var changes: OrderedIndex {
        get { fields.changes }
        _modify { yield &uniqueFields().changes }
    }
    /// `indexes[i]` is the ordered index of `record.specs[i]`; a full-text index over the
    /// full_text specs follows when there are any, then one index per spec that names a
    /// registered kind (docs/indexes.md), in spec order.
    var indexes: [any SoupIndex] {
        get { fields.indexes }
        _modify { yield &uniqueFields().indexes }
    }
    /// Names this soup's entries and indexes as a store state holds them: a number unique in
    /// the process, taken afresh by ``StoreState/put(_:)`` (the only way a soup enters or
    /// changes in a state), so two soups with the same number have the same entries and
    /// index versions. Smart SQL's index walk compares it instead of each index's version.
    /// 0 for a soup no state holds.
    var contentVersion: UInt64 {
        get { fields.contentVersion }
        _modify { yield &uniqueFields().contentVersion }
    }

    /// A soup with no entries.
    init(record: SoupRecord) {
        fields = Fields(
            record: record,
            extractor: JSONFieldExtractor(fields: record.specs.map { IndexField(path: $0.jsonPath, type: $0.type) }),
            indexes: Self.emptyIndexes(for: record.specs))
    }

    /// The fields, copied first when another value shares them. A copy of the fields shares
    /// their indexes, which copy themselves on their own first change, as they would when
    /// copied with a plain struct.
    private mutating func uniqueFields() -> Fields {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
        return fields
    }

    /// The stored properties of a ``SoupState``. Changed only through a state that holds the
    /// only reference (``uniqueFields()``), so a published state's fields never change while
    /// readers on other threads read them.
    private final class Fields: @unchecked Sendable {
        var record: SoupRecord
        let extractor: JSONFieldExtractor
        var entryIDs = OrderedIndex()
        var changes = OrderedIndex()
        var indexes: [any SoupIndex]
        var contentVersion: UInt64 = 0

        init(record: SoupRecord, extractor: JSONFieldExtractor, indexes: [any SoupIndex]) {
            self.record = record
            self.extractor = extractor
            self.indexes = indexes
        }

        func copy() -> Fields {
            let copy = Fields(record: record, extractor: extractor, indexes: indexes)
            copy.entryIDs = entryIDs
            copy.changes = changes
            copy.contentVersion = contentVersion
            return copy
        }
    }

    /// One empty index per spec, then the full-text index when any spec is full_text, then
    /// one of each registered kind a spec names.
    static func emptyIndexes(for specs: [IndexSpec]) -> [any SoupIndex] {
        var indexes: [any SoupIndex] = specs.enumerated().map { field, spec in
            OrderedPathIndex(field: field, unique: spec.unique)
        }
        let fullTextFields = specs.indices.filter { specs[$0].type == .fullText }
        if !fullTextFields.isEmpty { indexes.append(FullTextPathIndex(fields: fullTextFields)) }
        for (field, spec) in specs.enumerated() {
            if let kind = spec.kind { indexes.append(RegisteredPathIndex(field: field, kindName: kind)) }
        }
        return indexes
    }

    /// Fails when a spec names an index kind this process has not registered: the store
    /// could not keep that index as the soup changes (docs/indexes.md).
    ///
    /// - Throws: `unknown_index_kind`.
    func checkIndexKinds() throws(StockpotError) {
        for case let index as RegisteredPathIndex in indexes where index.index == nil {
            throw StockpotError(
                .unknownIndexKind,
                "Soup \"\(name)\" has an index of kind \(index.kindName) on \"\(record.specs[index.field].path)\", "
                    + "and no such kind is registered (IndexKinds.register).")
        }
    }

    /// The registered-kind indexes of spec `spec`.
    func registeredIndexes(ofSpec spec: Int) -> [any PathIndex] {
        guard record.specs[spec].kind != nil else { return [] }
        return indexes.compactMap { index in
            guard let registered = index as? RegisteredPathIndex, registered.field == spec else { return nil }
            return registered.index
        }
    }

    var id: UInt32 { record.id }
    var name: String { record.name }
    var count: Int { entryIDs.count }

    /// Whether entry `id` exists.
    func contains(_ id: Int64) -> Bool {
        entryIDs.contains(.integer(id), id: id)
    }

    /// The position of the spec on `path` (compared by bytes), if the path is indexed.
    func specIndex(forPath path: String) -> Int? {
        record.specs.firstIndex { $0.path.utf8Equals(path) }
    }

    /// The ordered index of `path`, if the path is indexed.
    func orderedIndex(forPath path: String) -> OrderedPathIndex? {
        guard let position = specIndex(forPath: path) else { return nil }
        return indexes[position] as? OrderedPathIndex
    }

    /// The full-text index, when the soup has full_text paths.
    var fullTextIndex: FullTextPathIndex? {
        indexes.count > record.specs.count ? indexes[record.specs.count] as? FullTextPathIndex : nil
    }

    /// Every spec's value for the document `bytes`, with no sequence.
    ///
    /// - Throws: `corruption` when stored bytes are not a JSON document.
    func indexedEntry(id: Int64, document bytes: [UInt8]) throws(StockpotError) -> IndexedEntry {
        try Self.indexedEntry(id: id, document: bytes, extractor: extractor, soupName: name)
    }

    /// Every spec's value for a stored entry, with its sequence.
    ///
    /// - Throws: `corruption` when the stored bytes are not a JSON document, or a version-1
    ///   record has no legacy base.
    func indexedEntry(id: Int64, record: EntryRecord) throws(StockpotError) -> IndexedEntry {
        var entry = try indexedEntry(id: id, document: record.document)
        entry.sequence = try record.sequence(legacyBase: self.record.legacySequenceBase, id: id, soupName: name)
        return entry
    }

    /// The first spec with the default `newid`, if any: the soup's generated key.
    var newIDSpec: IndexSpec? {
        record.specs.first { $0.defaultValue == .newID }
    }

    /// The path whose value a tombstone keeps as the deleted entry's key: the `newid` spec's,
    /// else the external id path of the soup's upserts.
    var keyPath: String? {
        newIDSpec?.path ?? record.externalIdPath
    }

    /// ``indexedEntry(id:document:)`` with what it reads of the soup given, so that it can run
    /// on other threads without sharing (and so later copying) the soup's indexes.
    static func indexedEntry(
        id: Int64, document bytes: [UInt8], extractor: JSONFieldExtractor, soupName: String
    ) throws(StockpotError) -> IndexedEntry {
        do {
            let values = try bytes.withUnsafeBytes { (raw) throws(JSONError) in try extractor.indexValues(in: raw) }
            return IndexedEntry(id: id, values: values)
        } catch {
            throw StockpotError(.corruption, "Entry \(id) of soup \"\(soupName)\" is not a readable JSON document: \(error).")
        }
    }

    /// The change index's value for a sequence (sequences stay below 2^63).
    static func changeValue(_ sequence: UInt64) -> IndexValue {
        .integer(Int64(bitPattern: sequence))
    }

    /// Adds an entry to every index.
    mutating func insert(_ entry: IndexedEntry) {
        entryIDs.insert(.integer(entry.id), id: entry.id)
        changes.insert(Self.changeValue(entry.sequence), id: entry.id)
        for position in indexes.indices { indexes[position].insert(entry) }
    }

    /// Adds a new entry to the entry-id index and to every index that takes entries one by
    /// one; appends it to `deferred` for the indexes that prefer batches (see ``flush(_:)``).
    mutating func insert(_ entry: IndexedEntry, deferring deferred: inout [IndexedEntry]) {
        entryIDs.insert(.integer(entry.id), id: entry.id)
        changes.insert(Self.changeValue(entry.sequence), id: entry.id)
        var defers = false
        for position in indexes.indices {
            if indexes[position].prefersBatchInserts {
                defers = true
            } else {
                indexes[position].insert(entry)
            }
        }
        if defers { deferred.append(entry) }
    }

    /// Adds new entries (ids the soup has never held, ascending) to every index, as
    /// ``insert(_:deferring:)`` and ``flush(_:)`` would one after the other. The indexes are
    /// independent, so with enough entries each is filled on its own thread: a keeper thread
    /// (``Parallel/forEachKeeping(count:_:alongside:)``), so that the nodes the indexes keep are not
    /// allocated among the batch's short-lived buffers, whose freed holes would pin pages.
    /// The calling thread runs `alongside` meanwhile (after the inserts, for a small batch).
    mutating func insertNew(_ batch: [IndexedEntry], alongside: () -> Void = {}) {
        guard batch.count >= Self.parallelInsertMinimum else {
            var deferred: [IndexedEntry] = []
            for entry in batch { insert(entry, deferring: &deferred) }
            flush(&deferred)
            alongside()
            return
        }
        // Moved out, so that each index is mutated in place by its own task and the array and
        // the entry-id index are not copied.
        var ids = entryIDs
        entryIDs = OrderedIndex()
        var changes = self.changes
        self.changes = OrderedIndex()
        var taken = indexes
        indexes = []
        taken.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let buffer = buffer
            Parallel.forEachKeeping(
                count: buffer.count + 1,
                { task in
                    guard task < buffer.count else {
                        for entry in batch {
                            ids.insert(.integer(entry.id), id: entry.id)
                            changes.insert(Self.changeValue(entry.sequence), id: entry.id)
                        }
                        return
                    }
                    if buffer[task].prefersBatchInserts {
                        buffer[task].insert(batch: batch)
                    } else {
                        for entry in batch { buffer[task].insert(entry) }
                    }
                }, alongside: alongside)
        }
        entryIDs = ids
        self.changes = changes
        indexes = taken
    }

    /// Batches smaller than this are indexed on the calling thread.
    static let parallelInsertMinimum = 64

    /// Adds the deferred new entries to the indexes that prefer batches, and empties the list.
    mutating func flush(_ deferred: inout [IndexedEntry]) {
        guard !deferred.isEmpty else { return }
        for position in indexes.indices where indexes[position].prefersBatchInserts {
            indexes[position].insert(batch: deferred)
        }
        deferred.removeAll()
    }

    /// Removes an entry from every index, given its values.
    mutating func remove(_ entry: IndexedEntry) {
        _ = entryIDs.remove(.integer(entry.id), id: entry.id)
        _ = changes.remove(Self.changeValue(entry.sequence), id: entry.id)
        for position in indexes.indices { indexes[position].remove(entry) }
    }

    /// Changes an entry from its values in the indexes (`old`) to `new`: the same id, a new
    /// sequence. An index whose values are identical in both is left as it is, so an update
    /// that keeps the indexed fields costs the change index only.
    mutating func update(_ old: IndexedEntry, to new: IndexedEntry) {
        _ = changes.remove(Self.changeValue(old.sequence), id: old.id)
        changes.insert(Self.changeValue(new.sequence), id: new.id)
        for position in indexes.indices { indexes[position].update(old, to: new) }
    }

    /// Removes entries `ids` from the entry-id and change indexes without their values (for
    /// recovery, whose log no longer holds the old values): one linear pass each.
    mutating func removeFromIDIndexes(_ ids: Set<Int64>) {
        guard !ids.isEmpty else { return }
        for id in ids { _ = entryIDs.remove(.integer(id), id: id) }
        var kept: [IndexEntry] = []
        kept.reserveCapacity(changes.count)
        changes.forEach { entry in
            if !ids.contains(entry.id) { kept.append(entry) }
            return true
        }
        if kept.count != changes.count { changes = OrderedIndex(entries: kept) }
    }

    /// The spec whose unique index refuses `entry`, if any. `entry.id`'s own values must be
    /// out of the indexes, or given as `current` (an update checked before it changes them).
    func uniqueConflict(for entry: IndexedEntry, current: IndexedEntry? = nil) -> IndexSpec? {
        for (position, spec) in record.specs.enumerated() where spec.unique {
            // A value the entry holds already is held by no other entry.
            if let current, current.values[position] == entry.values[position] { continue }
            if !indexes[position].admits(entry) { return spec }
        }
        return nil
    }

    /// Rebuilds every index from `entries` (all of the soup's entries, any order).
    mutating func rebuild(from entries: [IndexedEntry]) {
        entryIDs = OrderedIndex(entries: entries.map { IndexEntry(value: .integer($0.id), id: $0.id) })
        changes = OrderedIndex(entries: entries.map { IndexEntry(value: Self.changeValue($0.sequence), id: $0.id) })
        for position in indexes.indices { indexes[position].build(from: entries) }
    }
}
