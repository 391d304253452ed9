// Reading a whole soup from one view, for `stockpot dump` and `stockpot verify`: its catalog
// facts (specs, id high-water mark) and every entry in id order with its creation date.

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

    /// Creates a description.
    package init(name: String, specs: [IndexSpec], nextEntryID: Int64, count: Int) {
        self.name = name
        self.specs = specs
        self.nextEntryID = nextEntryID
        self.count = count
    }
}

extension StoreView {
    /// The catalog facts of a soup.
    ///
    /// - Throws: `soup_not_found`.
    package func describeSoup(_ name: String) throws(StockpotError) -> SoupDescription {
        let soup = try state.existingSoup(named: name)
        return SoupDescription(name: soup.name, specs: soup.record.specs, nextEntryID: soup.record.nextEntryID, count: soup.count)
    }

    /// Calls `body` with every entry of a soup in ascending id order: id, creation time and the
    /// stored document, until `body` returns `false`.
    ///
    /// - Throws: `soup_not_found`; `corruption` or `io_error` from reading; what `body` throws.
    /// - Complexity: O(n) reads, in key order.
    package func forEachEntry(
        in soupName: String, _ body: (_ id: Int64, _ created: Int64, _ document: [UInt8]) throws -> Bool
    ) throws {
        let soup = try state.existingSoup(named: soupName)
        do {
            try state.view.forEach(from: StoreKeys.entriesStart(soup: soup.id)) { key, value in
                guard let (soupID, id) = StoreKeys.entryID(of: key), soupID == soup.id else { return false }
                guard let record = EntryRecord(decoding: value) else {
                    throw StockpotError(.corruption, "The record of entry \(id) of soup \"\(soup.name)\" has an unknown layout.")
                }
                return try body(id, record.created, record.document)
            }
        } catch let error as StorageError {
            throw StockpotError(error)
        }
    }
}
