// The index half of `stockpot verify`: every soup's indexes, as the store loaded them (from
// the snapshot and the log after it), against a rebuild from the entries in the log.

import StockpotIndex

/// What the index check found for one soup.
package struct SoupIndexCheck: Sendable {
    /// The soup.
    package var soup: String
    /// Entries read from the log.
    package var entries = 0
    /// Indexes compared (the entry-id and change indexes included).
    package var indexes = 0
    /// What disagrees, one sentence each; empty when all is well.
    package var problems: [String] = []
}

extension StoreView {
    /// Rebuilds every soup's indexes from its stored entries and compares them with the
    /// indexes this view holds; equal indexes serialize to equal bytes (docs/store.md).
    ///
    /// - Complexity: O(n log n) for n entries, each read once.
    package func checkIndexes() -> [SoupIndexCheck] {
        state.soupNames.compactMap { name in
            guard let soup = state.soup(named: name) else { return nil }
            return check(soup)
        }
    }

    private func check(_ soup: SoupState) -> SoupIndexCheck {
        var result = SoupIndexCheck(soup: soup.name)
        var entries: [IndexedEntry] = []
        entries.reserveCapacity(soup.count)
        var highest: Int64 = 0
        do {
            try forEachEntry(in: soup.name) { id, _, sequence, document in
                var entry = try soup.indexedEntry(id: id, document: document)
                entry.sequence = sequence
                entries.append(entry)
                highest = max(highest, id)
                return true
            }
        } catch {
            result.problems.append("Soup \"\(soup.name)\": reading its entries failed: \(error).")
            return result
        }
        result.entries = entries.count
        if highest >= soup.record.nextEntryID {
            result.problems.append(
                "Soup \"\(soup.name)\" holds entry \(highest) but its next entry id is \(soup.record.nextEntryID).")
        }
        var rebuilt = SoupState(record: soup.record)
        rebuilt.rebuild(from: entries)
        result.indexes = 2 + soup.indexes.count
        if rebuilt.entryIDs.serialized() != soup.entryIDs.serialized() {
            result.problems.append(
                "Soup \"\(soup.name)\": the entry-id index (\(soup.count) ids) disagrees with the \(entries.count) entries in the log.")
        }
        if rebuilt.changes.serialized() != soup.changes.serialized() {
            result.problems.append(
                "Soup \"\(soup.name)\": the change index (\(soup.changes.count) entries) disagrees with the sequences of the \(entries.count) entries in the log."
            )
        }
        for position in soup.indexes.indices
        where rebuilt.indexes[position].serialized() != soup.indexes[position].serialized() {
            let what: String
            if position < soup.record.specs.count {
                let spec = soup.record.specs[position]
                what = "the \(spec.type.rawValue) index on \"\(spec.path)\""
            } else {
                what = "the full-text index"
            }
            result.problems.append(
                "Soup \"\(soup.name)\": \(what) (\(soup.indexes[position].count) entries) disagrees with a rebuild from the log (\(rebuilt.indexes[position].count) entries)."
            )
        }
        return result
    }
}
