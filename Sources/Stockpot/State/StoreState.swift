// One consistent state of a store: the catalog, every soup's indexes, and the engine view
// their entries are read from. Published whole after each commit; readers keep the copy they
// took while writes go on.

import StockpotStorage
import Synchronization

/// Everything a reader needs, immutable once published. Copies are O(1).
struct StoreState: Sendable {
    /// The fields, shared by copies until one of them is changed: a reader's view and every
    /// query take a copy, which costs one reference count rather than one per table.
    private var fields: Fields

    /// Soups by id. Changed only through ``put(_:)`` and ``remove(soup:)``, which keep
    /// ``schemaVersion``.
    var soups: [UInt32: SoupState] { fields.soups }
    /// Soup ids by name. Names are data, compared by their UTF-8 bytes (not by Unicode
    /// equivalence, which `String`'s `==` uses).
    var soupIDs: [SoupName: UInt32] { fields.soupIDs }
    static let fewSoupsLimit = 8
    /// Names the catalog's shape (which soups exist, their names and index specs): a number
    /// unique in the process, taken afresh whenever the shape changes, so two states with the
    /// same number have the same soups and specs (entries may differ). A prepared Smart SQL
    /// statement compares it instead of checking every soup it reads.
    var schemaVersion: UInt64 { fields.schemaVersion }
    /// The id the next registered soup gets; ids are never reused.
    var nextSoupID: UInt32 {
        get { fields.nextSoupID }
        _modify { yield &uniqueFields().nextSoupID }
    }
    /// The sequence of the last commit (docs/changes.md); 0 for a new store.
    var lastSequence: UInt64 {
        get { fields.lastSequence }
        _modify { yield &uniqueFields().lastSequence }
    }
    /// Tombstones at or below this sequence have been purged: the change feed refuses to
    /// start below it.
    var purgedThrough: UInt64 {
        get { fields.purgedThrough }
        _modify { yield &uniqueFields().purgedThrough }
    }
    /// The engine state the indexes describe.
    var view: StorageView {
        get { fields.view }
        _modify { yield &uniqueFields().view }
    }

    init(view: StorageView) {
        fields = Fields(view: view)
    }

    /// The fields, copied first when another state shares them (a copy shares the tables,
    /// which copy themselves on their own first change).
    private mutating func uniqueFields() -> Fields {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
        return fields
    }

    /// The stored properties of a ``StoreState``. Changed only through a state that holds the
    /// only reference (``uniqueFields()``), so a published state's fields never change while
    /// readers on other threads read them.
    private final class Fields: @unchecked Sendable {
        var soups: [UInt32: SoupState] = [:]
        var soupIDs: [SoupName: UInt32] = [:]
        /// The same names and ids while there are at most ``StoreState/fewSoupsLimit`` soups
        /// (empty beyond): a read by name compares these bytes instead of hashing, which
        /// costs more than a few comparisons for the handful of soups most stores have.
        var fewSoups: [(name: String, id: UInt32)] = []
        var schemaVersion = StoreState.newSchemaVersion()
        var nextSoupID: UInt32 = 1
        var lastSequence: UInt64 = 0
        var purgedThrough: UInt64 = 0
        var view: StorageView

        init(view: StorageView) {
            self.view = view
        }

        func copy() -> Fields {
            let copy = Fields(view: view)
            copy.soups = soups
            copy.soupIDs = soupIDs
            copy.fewSoups = fewSoups
            copy.schemaVersion = schemaVersion
            copy.nextSoupID = nextSoupID
            copy.lastSequence = lastSequence
            copy.purgedThrough = purgedThrough
            return copy
        }
    }

    /// The soup named `name`, if it exists.
    func soup(named name: String) -> SoupState? {
        soupID(named: name).flatMap { soups[$0] }
    }

    /// The id of the soup named `name`, if it exists.
    private func soupID(named name: String) -> UInt32? {
        let fields = fields
        guard fields.soupIDs.count <= Self.fewSoupsLimit else { return fields.soupIDs[SoupName(name)] }
        for soup in fields.fewSoups where soup.name.utf8Equals(name) { return soup.id }
        return nil
    }

    /// The soup named `name`.
    ///
    /// - Throws: `soup_not_found`.
    func existingSoup(named name: String) throws(StockpotError) -> SoupState {
        guard let soup = soup(named: name) else {
            throw StockpotError(.soupNotFound, "There is no soup named \"\(name)\".")
        }
        return soup
    }

    /// The id of the soup named `name`, without copying its state (reads by id need no more).
    ///
    /// - Throws: `soup_not_found`.
    func existingSoupID(named name: String) throws(StockpotError) -> UInt32 {
        guard let id = soupID(named: name) else {
            throw StockpotError(.soupNotFound, "There is no soup named \"\(name)\".")
        }
        return id
    }

    /// Every soup name, sorted by UTF-8 bytes.
    var soupNames: [String] {
        soupIDs.keys.map(\.text).sorted { $0.utf8Compare($1) < 0 }
    }

    /// Adds or replaces a soup.
    mutating func put(_ soup: SoupState) {
        // Array `==` sees shared storage first, so a write that keeps the specs costs little.
        let fields = uniqueFields()
        let old = fields.soups[soup.id]
        let sameShape = old.map { $0.record.name.utf8Equals(soup.record.name) && $0.record.specs == soup.record.specs } ?? false
        if !sameShape { fields.schemaVersion = Self.newSchemaVersion() }
        var soup = soup
        soup.contentVersion = Self.newSchemaVersion()
        fields.soups[soup.id] = soup
        if fields.soupIDs.updateValue(soup.id, forKey: SoupName(soup.name)) != soup.id { Self.rebuildFewSoups(fields) }
    }

    /// Changes soup `id` in place, keeping its content version: for completing a change that
    /// ``put(_:)`` was given before anyone could read it (the new entries' index inserts that
    /// a transaction runs while its batch is written). Nothing when there is no such soup.
    mutating func complete(soup id: UInt32, _ change: (inout SoupState) -> Void) {
        // Taken out, so that the state's copy is the only one and its indexes are not copied.
        let fields = uniqueFields()
        guard var soup = fields.soups.removeValue(forKey: id) else { return }
        change(&soup)
        fields.soups[id] = soup
    }

    /// Refills `fields.fewSoups` from its names. Given the fields a caller holds: asking for
    /// ``uniqueFields()`` again while a caller holds them would copy them, and the caller's
    /// later changes would go to the discarded copy.
    private static func rebuildFewSoups(_ fields: Fields) {
        fields.fewSoups = fields.soupIDs.count <= Self.fewSoupsLimit ? fields.soupIDs.map { ($0.key.text, $0.value) } : []
    }

    /// Drops a soup.
    mutating func remove(soup id: UInt32) {
        let fields = uniqueFields()
        guard let soup = fields.soups.removeValue(forKey: id) else { return }
        fields.soupIDs[SoupName(soup.name)] = nil
        Self.rebuildFewSoups(fields)
        fields.schemaVersion = Self.newSchemaVersion()
    }

    /// The last schema version handed out, by any store of the process.
    private static let lastSchemaVersion = Atomic<UInt64>(0)

    /// A schema version no state of the process has had (also each soup's
    /// ``SoupState/contentVersion``: one counter, so the numbers never repeat).
    private static func newSchemaVersion() -> UInt64 {
        lastSchemaVersion.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Bytes of an entry's engine key: the soup id, then the entry id (both big-endian).
    private static let entryKeyLength = 12

    /// The engine keys of entries `ids` of soup `soup`, packed back to back for a batch read.
    private static func entryKeys(soup: UInt32, ids: [Int64]) -> [UInt8] {
        var keys = [UInt8](repeating: 0, count: ids.count * entryKeyLength)
        keys.withUnsafeMutableBytes { raw in
            for (i, id) in ids.enumerated() {
                raw.storeBytes(of: soup.bigEndian, toByteOffset: i * entryKeyLength, as: UInt32.self)
                raw.storeBytes(of: UInt64(bitPattern: id).bigEndian, toByteOffset: i * entryKeyLength + 4, as: UInt64.self)
            }
        }
        return keys
    }

    /// The stored entries `ids` of soup `soup`, in the order of `ids` (`nil` for an id not in
    /// the engine view): what ``storedEntry(soup:id:)`` gives for each, read as one batch so
    /// that the records' memory latencies overlap (a page of query results).
    func storedEntries(soup: UInt32, ids: [Int64]) throws(StockpotError) -> [EntryRecord?] {
        let keys = Self.entryKeys(soup: soup, ids: ids)
        let read: Result<[[UInt8]?], StorageError> = keys.withUnsafeBytes { keys in
            do throws(StorageError) {
                return .success(try view.values(forKeys: keys, keyLength: Self.entryKeyLength))
            } catch {
                return .failure(error)
            }
        }
        var values: [[UInt8]?]
        switch consume read {
        case .success(let found): values = found
        case .failure(let error): throw StockpotError(error)
        }
        var records: [EntryRecord?] = []
        records.reserveCapacity(values.count)
        for (position, id) in zip(values.indices, ids) {
            // Taken out of the array, so the record owns the only reference and truncates
            // the trailer in place instead of copying the document.
            guard let value = values[position].take() else {
                records.append(nil)
                continue
            }
            guard let record = EntryRecord(decoding: value) else {
                throw StockpotError(.corruption, "The stored record of entry \(id) (soup id \(soup)) has an unknown layout.")
            }
            records.append(record)
        }
        return records
    }

    /// ``storedEntries(soup:ids:)`` with the documents as slices of a few shared buffers
    /// (`StorageView.valueSlices`): a page of documents read as one allocation.
    func storedEntrySlices(soup: UInt32, ids: [Int64]) throws(StockpotError) -> [EntryRecordSlice?] {
        let keys = Self.entryKeys(soup: soup, ids: ids)
        let read: Result<[ArraySlice<UInt8>?], StorageError> = keys.withUnsafeBytes { keys in
            do throws(StorageError) {
                return .success(try view.valueSlices(forKeys: keys, keyLength: Self.entryKeyLength))
            } catch {
                return .failure(error)
            }
        }
        let values: [ArraySlice<UInt8>?]
        switch consume read {
        case .success(let found): values = found
        case .failure(let error): throw StockpotError(error)
        }
        var records: [EntryRecordSlice?] = []
        records.reserveCapacity(values.count)
        for (value, id) in zip(values, ids) {
            guard let value else {
                records.append(nil)
                continue
            }
            guard let record = EntryRecordSlice(decoding: value) else {
                throw StockpotError(.corruption, "The stored record of entry \(id) (soup id \(soup)) has an unknown layout.")
            }
            records.append(record)
        }
        return records
    }

    /// The stored entry `id` of soup `soup`, if it exists in the engine view.
    func storedEntry(soup: UInt32, id: Int64) throws(StockpotError) -> EntryRecord? {
        // The key is built on the stack; the value and the error are carried out of the
        // closure in variables (typed throws through `withUnsafe...` closures trips a
        // compiler bug).
        var bytes: [UInt8]?
        let failure: StorageError? = StoreKeys.withEntryKey(soup: soup, entry: id) { key in
            do throws(StorageError) {
                bytes = try view.value(for: key)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw StockpotError(failure) }
        // Taken, so the record owns the only reference and truncates the trailer in place
        // instead of copying the document.
        guard let value = bytes.take() else { return nil }
        guard let record = EntryRecord(decoding: value) else {
            throw StockpotError(.corruption, "The stored record of entry \(id) (soup id \(soup)) has an unknown layout.")
        }
        return record
    }
}

/// A soup name as a dictionary key: equal and hashed by its UTF-8 bytes, and made from a
/// `String` without copying it.
struct SoupName: Hashable, Sendable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    static func == (lhs: SoupName, rhs: SoupName) -> Bool {
        lhs.text.utf8Equals(rhs.text)
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
