// A statement bound once and run many times, as SQLite's prepared statements are: the bound
// tree with its plans and row readers, valid for any state of the soups whose schemas (index
// specs) it was bound against. Entries and indexes come from the catalog at each run, so a
// write never leaves a prepared statement stale; a change of schema binds it again.

import Synchronization

/// A bound statement and what it was bound against. @unchecked Sendable: immutable once made
/// (binding is over; every run keeps its own state in its executor and frame).
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

    init(select: BoundSelect, binder: SQLBinder) {
        self.select = select
        slotCount = binder.slotCount
        aggregateCount = binder.aggregateCount
        placeholderCount = binder.placeholdersUsed
        schemas = (0..<binder.slotCount).map { SQLSoupSchema(binder.soup(ofSlot: $0)) }
        fullText = binder.usesFullText ? (0..<binder.slotCount).map { SQLFullTextShape(binder.soup(ofSlot: $0)) } : nil
    }

    /// The catalog's soup for each row slot, or nil when one is gone or its schema changed.
    func soups(in catalog: any SQLCatalog) -> [any SQLSoup]? {
        var soups: [any SQLSoup] = []
        soups.reserveCapacity(schemas.count)
        for (slot, schema) in schemas.enumerated() {
            guard let soup = catalog.soup(named: schema.name), schema.matches(soup) else { return nil }
            if let fullText, fullText[slot] != SQLFullTextShape(soup) { return nil }
            soups.append(soup)
        }
        return soups
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
    private struct Entry {
        let statement: SQLPreparedStatement
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 128) {
        self.capacity = max(1, capacity)
    }

    /// The statement prepared for `text`, if any.
    func statement(for text: String) -> SQLPreparedStatement? {
        state.withLock { state in
            guard var entry = state.entries[text] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[text] = entry
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
        }
    }

    /// The number of statements held.
    var count: Int { state.withLock { $0.entries.count } }
}
