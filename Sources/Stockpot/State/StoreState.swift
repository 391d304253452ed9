// One consistent state of a store: the catalog, every soup's indexes, and the engine view
// their entries are read from. Published whole after each commit; readers keep the copy they
// took while writes go on.

import StockpotStorage

/// Everything a reader needs, immutable once published. Copies are O(1).
struct StoreState: Sendable {
    /// Soups by id.
    var soups: [UInt32: SoupState] = [:]
    /// Soup ids by name. Names are data, compared by their UTF-8 bytes (not by Unicode
    /// equivalence, which `String`'s `==` uses).
    var soupIDs: [SoupName: UInt32] = [:]
    /// The id the next registered soup gets; ids are never reused.
    var nextSoupID: UInt32 = 1
    /// The engine state the indexes describe.
    var view: StorageView

    init(view: StorageView) {
        self.view = view
    }

    /// The soup named `name`, if it exists.
    func soup(named name: String) -> SoupState? {
        soupIDs[SoupName(name)].flatMap { soups[$0] }
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
        guard let id = soupIDs[SoupName(name)] else {
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
        soups[soup.id] = soup
        soupIDs[SoupName(soup.name)] = soup.id
    }

    /// Drops a soup.
    mutating func remove(soup id: UInt32) {
        guard let soup = soups.removeValue(forKey: id) else { return }
        soupIDs[SoupName(soup.name)] = nil
    }

    /// The stored entry `id` of soup `soup`, if it exists in the engine view.
    func storedEntry(soup: UInt32, id: Int64) throws(StockpotError) -> EntryRecord? {
        let bytes: [UInt8]?
        do {
            bytes = try view.value(for: StoreKeys.entry(soup: soup, entry: id))
        } catch {
            throw StockpotError(error)
        }
        guard let bytes else { return nil }
        guard let record = EntryRecord(decoding: bytes) else {
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
