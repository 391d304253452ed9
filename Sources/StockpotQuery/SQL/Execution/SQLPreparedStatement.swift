// A statement bound once and run many times, as SQLite's prepared statements are: the bound
// tree with its plans and row readers, valid for any state of the soups whose schemas (index
// specs) it was bound against. Entries and indexes come from the catalog at each run, so a
// write never leaves a prepared statement stale; a change of schema binds it again.

import Synchronization

/// A bound statement and what it was bound against. @unchecked Sendable: immutable once made
/// (binding is over; every run keeps its own state in its executor and frame), but for
/// atomics and mutex-guarded memos.
final class SQLPreparedStatement: @unchecked Sendable {
    let select: BoundSelect
    let slotCount: Int
    let aggregateCount: Int
    /// The number of `?` placeholders.
    let placeholderCount: Int
    /// By row slot: the schema of the soup bound there.
    let schemas: [SQLSoupSchema]
    /// By row slot, when the statement has a MATCH: the soup's full-text setup when bound.
    let fullText: [SQLFullTextShape]?
    /// The index walk that answers the whole statement, when it has that shape.
    let indexScan: SQLIndexScan?
    /// The index join that answers the whole statement once its columns are cached, when it
    /// has that shape.
    let indexJoin: SQLIndexJoin?

    init(select: BoundSelect, binder: SQLBinder) {
        self.select = select
        slotCount = binder.slotCount
        aggregateCount = binder.aggregateCount
        placeholderCount = binder.placeholdersUsed
        schemas = (0..<binder.slotCount).map { SQLSoupSchema(binder.soup(ofSlot: $0)) }
        fullText = binder.usesFullText ? (0..<binder.slotCount).map { SQLFullTextShape(binder.soup(ofSlot: $0)) } : nil
        indexScan = SQLIndexScan(select)
        indexJoin = SQLIndexJoin(select)
    }

    /// The last catalog schema version (``SQLCatalog/schemaVersion``) whose soups were
    /// found to have the schemas bound against, with each slot's soup by its catalog id
    /// (``SQLSoup/catalogID``); nil for none yet.
    private let resolved = Mutex<(version: UInt64, ids: [UInt32])?>(nil)

    /// The catalog's soup for each row slot, or nil when one is gone or its schema changed.
    /// A catalog of the schema version last checked is not checked again (its soups have the
    /// same specs and ids), so a run of an unchanged schema only looks its soups up by id.
    func soups(in catalog: some SQLCatalog) -> [any SQLSoup]? {
        var soups: [any SQLSoup] = []
        soups.reserveCapacity(schemas.count)
        guard resolve(in: catalog, { soups.append($0) }) else { return nil }
        return soups
    }

    /// The catalog's soup for the statement's one row slot, as ``soups(in:)`` finds it; nil
    /// also when the statement has other slots.
    func onlySoup(in catalog: some SQLCatalog) -> (any SQLSoup)? {
        guard schemas.count == 1 else { return nil }
        var found: (any SQLSoup)?
        guard resolve(in: catalog, { found = $0 }) else { return nil }
        return found
    }

    /// Hands each row slot's soup to `take`, in slot order; false when one is gone or its
    /// schema changed.
    private func resolve(in catalog: some SQLCatalog, _ take: (any SQLSoup) -> Void) -> Bool {
        let version = catalog.schemaVersion
        if let version, let known = resolved.withLock({ $0 }), known.version == version {
            for id in known.ids {
                // Never nil: the same schema version has the same soups under the same ids.
                guard let soup = catalog.soup(catalogID: id) else { return false }
                take(soup)
            }
            return true
        }
        var ids: [UInt32] = []
        ids.reserveCapacity(schemas.count)
        for (slot, schema) in schemas.enumerated() {
            guard let soup = catalog.soup(named: schema.name), schema.matches(soup) else { return false }
            if let fullText, fullText[slot] != SQLFullTextShape(soup) { return false }
            if let id = soup.catalogID { ids.append(id) }
            take(soup)
        }
        if let version, ids.count == schemas.count { resolved.withLock { $0 = (version, ids) } }
        return true
    }
}

/// What binding a MATCH reads of a soup besides its specs: whether it has a full-text index
/// and each spec's full-text column.
struct SQLFullTextShape: Equatable {
    let hasIndex: Bool
    let columns: [Int?]

    init(_ soup: any SQLSoup) {
        hasIndex = soup.fullTextIndex != nil
        columns = soup.indexedFields.indices.map { soup.fullTextColumn(ofSpec: $0) }
    }
}

/// Prepared statements by text, the least recently used dropped first. Thread-safe.
final class SQLPreparedCache: Sendable {
    /// A class, so that a lookup stamps its use without writing the dictionary again (which
    /// would hash the text a second time).
    private final class Entry {
        let statement: SQLPreparedStatement
        var lastUse: UInt64

        init(statement: SQLPreparedStatement, lastUse: UInt64) {
            self.statement = statement
            self.lastUse = lastUse
        }
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
        /// The statements of the last few lookups, searched first by comparing texts: a
        /// statement run again and again (the usual case) is found without hashing its text
        /// (comparing is a length check and one `memcmp`, or nothing for the same `String`).
        var recent: [(text: String, entry: Entry)] = []
        /// The slot of `recent` the next dictionary hit replaces.
        var nextRecent = 0
    }

    /// How many statements `recent` holds.
    static let recentCapacity = 4

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 128) {
        self.capacity = max(1, capacity)
    }

    /// The statement prepared for `text`, if any.
    func statement(for text: String) -> SQLPreparedStatement? {
        state.withLock { state in
            state.clock += 1
            for slot in state.recent.indices where state.recent[slot].text == text {
                let entry = state.recent[slot].entry
                entry.lastUse = state.clock
                return entry.statement
            }
            guard let entry = state.entries[text] else { return nil }
            entry.lastUse = state.clock
            if state.recent.count < Self.recentCapacity {
                state.recent.append((text, entry))
            } else {
                state.recent[state.nextRecent] = (text, entry)
                state.nextRecent = (state.nextRecent + 1) % Self.recentCapacity
            }
            return entry.statement
        }
    }

    /// Keeps `statement` for `text`, replacing what was there.
    func store(_ statement: SQLPreparedStatement, for text: String) {
        state.withLock { state in
            state.clock += 1
            if state.entries[text] == nil && state.entries.count >= capacity,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                state.entries[oldest] = nil
            }
            state.entries[text] = Entry(statement: statement, lastUse: state.clock)
            // A statement stored again replaces the one `recent` may hold for its text.
            state.recent.removeAll { $0.text == text }
            // Nor does `recent` keep alive a statement the dictionary dropped.
            state.recent.removeAll { state.entries[$0.text] == nil }
        }
    }

    /// The number of statements held.
    var count: Int { state.withLock { $0.entries.count } }
}
