// Soup operations inside a transaction: register, alter, re-index, clear and remove.

import StockpotIndex

extension WriteTransaction {
    /// Registers a soup; a soup that already exists keeps its specs (use `alterSoup`).
    ///
    /// - Throws: `invalid_soup_name`, `no_index_specs`, `invalid_index_spec`, `limit_exceeded`
    ///   when soup ids are exhausted.
    public func registerSoup(_ name: String, indexSpecs: [IndexSpec]) throws(StockpotError) {
        try IndexSpec.validateSoupName(name, limits: limits)
        guard state.soup(named: name) == nil else { return }
        try IndexSpec.validate(indexSpecs, limits: limits)
        guard state.nextSoupID < UInt32.max else {
            throw StockpotError(.limitExceeded, "The store has used every soup id; no more soups can be registered.")
        }
        try atomically { () throws(StockpotError) in
            let id = state.nextSoupID
            state.nextSoupID += 1
            state.put(SoupState(record: SoupRecord(name: name, id: id, specs: indexSpecs, nextEntryID: 1)))
        }
    }

    /// Whether a soup exists.
    public func soupExists(_ name: String) -> Bool {
        state.soup(named: name) != nil
    }

    /// Replaces a soup's index specs and rebuilds its indexes from its entries, so that every
    /// index agrees with every entry when the call returns.
    ///
    /// - Parameters:
    ///   - name: The soup's name.
    ///   - indexSpecs: The soup's new index specs.
    ///   - reIndexData: Accepted for SmartStore compatibility; the indexes are rebuilt
    ///     either way (see docs/semantics.md, "Writes").
    /// - Throws: `soup_not_found`, `no_index_specs`, `invalid_index_spec`, `unique_violation`
    ///   when existing entries break a new unique index.
    /// - Complexity: O(n log n) for n entries, each read once.
    public func alterSoup(_ name: String, indexSpecs: [IndexSpec], reIndexData: Bool = true) throws(StockpotError) {
        let soup = try state.existingSoup(named: name)
        try IndexSpec.validate(indexSpecs, limits: limits)
        var record = soup.record
        record.specs = indexSpecs
        let altered = try rebuilt(SoupState(record: record), entriesOf: soup)
        try atomically { () throws(StockpotError) in state.put(altered) }
    }

    /// Rebuilds a soup's indexes from its entries. Indexes always agree with entries, so this
    /// changes no answer; it exists for SmartStore compatibility and as a repair.
    ///
    /// - Throws: `soup_not_found`.
    public func reIndexSoup(_ name: String, paths: [String]) throws(StockpotError) {
        let soup = try state.existingSoup(named: name)
        let rebuilt = try rebuilt(SoupState(record: soup.record), entriesOf: soup)
        try atomically { () throws(StockpotError) in state.put(rebuilt) }
    }

    /// Removes every entry of a soup. Entry ids are not reused afterwards.
    ///
    /// - Throws: `soup_not_found`.
    public func clearSoup(_ name: String) throws(StockpotError) {
        let soup = try state.existingSoup(named: name)
        try atomically { () throws(StockpotError) in
            deleteAllEntries(of: soup)
            recordSoupEvent(.soupCleared, of: soup, sequence: try takeSequence())
            state.put(SoupState(record: soup.record))
        }
    }

    /// Removes a soup and its entries; removing a soup that does not exist does nothing.
    ///
    /// - Throws: `invalid_soup_name` for an empty name or one over the limit.
    public func removeSoup(_ name: String) throws(StockpotError) {
        try IndexSpec.validateSoupName(name, limits: limits)
        guard let soup = state.soup(named: name) else { return }
        try atomically { () throws(StockpotError) in
            deleteAllEntries(of: soup)
            recordSoupEvent(.soupRemoved, of: soup, sequence: try takeSequence())
            state.remove(soup: soup.id)
        }
    }

    /// Records a delete of every entry of `soup`.
    private func deleteAllEntries(of soup: SoupState) {
        soup.entryIDs.forEach { entry in
            recordDelete(EntryKey(soup: soup.id, id: entry.id))
            return true
        }
    }

    /// Records the one event that stands for every entry a clear or removal deleted.
    private func recordSoupEvent(_ kind: Tombstone.Kind, of soup: SoupState, sequence: UInt64) {
        recordTombstone(
            Tombstone(sequence: sequence, kind: kind, soupID: soup.id, soupName: soup.name, entryID: 0, time: now, key: nil))
    }

    /// `fresh` (a soup with empty indexes) with every entry of `soup` indexed.
    ///
    /// - Throws: `unique_violation` when two entries share a value on a unique index.
    private func rebuilt(_ fresh: SoupState, entriesOf soup: SoupState) throws(StockpotError) -> SoupState {
        var entries: [IndexedEntry] = []
        entries.reserveCapacity(soup.count)
        var failure: StockpotError?
        soup.entryIDs.forEach { entry in
            do {
                guard let record = try entryRecord(soup: soup.id, id: entry.id) else {
                    throw StockpotError(.internal, "Entry \(entry.id) of soup \"\(soup.name)\" is indexed but not stored.")
                }
                entries.append(try fresh.indexedEntry(id: entry.id, record: record))
                return true
            } catch {
                failure = error as? StockpotError ?? StockpotError(.internal, "\(error)")
                return false
            }
        }
        if let failure { throw failure }
        var result = fresh
        result.rebuild(from: entries)
        for (position, spec) in result.record.specs.enumerated() where spec.unique {
            if let duplicate = result.indexes[position].firstDuplicate() {
                throw StockpotError(
                    .uniqueViolation,
                    "Two entries of soup \"\(soup.name)\" share the value \(duplicate) at the unique path \"\(spec.path)\".")
            }
        }
        return result
    }
}
