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
    var soupIDs: [[UInt8]: UInt32] = [:]
    /// The id the next registered soup gets; ids are never reused.
    var nextSoupID: UInt32 = 1
    /// The engine state the indexes describe.
    var view: StorageView

    init(view: StorageView) {
        self.view = view
    }

    /// The soup named `name`, if it exists.
    func soup(named name: String) -> SoupState? {
        soupIDs[Array(name.utf8)].flatMap { soups[$0] }
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

    /// Every soup name, sorted by UTF-8 bytes.
    var soupNames: [String] {
        soupIDs.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Adds or replaces a soup.
    mutating func put(_ soup: SoupState) {
        soups[soup.id] = soup
        soupIDs[Array(soup.name.utf8)] = soup.id
    }

    /// Drops a soup.
    mutating func remove(soup id: UInt32) {
        guard let soup = soups.removeValue(forKey: id) else { return }
        soupIDs[Array(soup.name.utf8)] = nil
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
