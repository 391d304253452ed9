// Reading the change feed from a view (docs/changes.md, "The change feed"): each soup's change
// index from the starting sequence, merged with the tombstones in key space 0.

import StockpotIndex
import StockpotJSON
import StockpotStorage

extension StoreView {
    /// The sequence of the last commit this view shows; 0 for a new store.
    public var lastSequence: UInt64 { state.lastSequence }

    /// Tombstones at or below this sequence have been purged; the feed refuses to start below it.
    public var purgedThrough: UInt64 { state.purgedThrough }

    /// Up to `limit` changes with a sequence above `since`, in sequence order: each entry
    /// changed after `since` once, with its current document, each deletion, clear and soup
    /// removal after it.
    ///
    /// - Parameters:
    ///   - since: The last sequence the caller has seen (0: from the start).
    ///   - names: Only changes of soups with these names; `nil` for every soup.
    ///   - limit: The most changes to return, at least 1.
    /// - Throws: `changes_expired` when `since` is below ``purgedThrough`` or above
    ///   ``lastSequence``; `invalid_argument` for a limit below 1; `corruption`, `io_error`.
    /// - Complexity: O(s log n + k) index work for s soups and k changes, plus reading the
    ///   k documents.
    public func changes(since: UInt64, soups names: [String]? = nil, limit: Int = 1000) throws(StockpotError) -> ChangePage {
        guard limit >= 1 else {
            throw StockpotError(.invalidArgument, "The change feed's limit is \(limit); it must be at least 1.")
        }
        guard since >= state.purgedThrough else {
            throw StockpotError(
                .changesExpired,
                "Tombstones through sequence \(state.purgedThrough) were purged, so the changes since \(since) are no longer complete; read the soups again and follow the feed from the last sequence read with them."
            )
        }
        guard since <= state.lastSequence else {
            throw StockpotError(
                .changesExpired,
                "The store's last sequence is \(state.lastSequence), below \(since): the position comes from another store or a later state of this one; read the soups again."
            )
        }
        let wanted = names.map { Set($0.map(SoupName.init)) }
        let soups = state.soups.values.filter { wanted?.contains(SoupName($0.name)) ?? true }
        // Up to limit + 1 candidates from each source: enough to fill the page and to know
        // whether more remain.
        var candidates: [Candidate] = []
        for soup in soups {
            var taken = 0
            soup.changes.forEach(from: soup.changes.upperBound(SoupState.changeValue(since))) { entry in
                guard case .integer(let sequence) = entry.value else { return false }
                candidates.append(Candidate(sequence: UInt64(bitPattern: sequence), source: .entry(soup.id, entry.id)))
                taken += 1
                return taken <= limit
            }
        }
        try collectTombstones(after: since, wanted: wanted, limit: limit, into: &candidates)
        candidates.sort { $0.sequence < $1.sequence }
        let hasMore = candidates.count > limit
        let page = candidates.prefix(limit)
        let changes = try materialize(page)
        return ChangePage(changes: changes, lastSequence: page.last?.sequence ?? since, hasMore: hasMore)
    }

    /// One change found, before its document is read.
    private struct Candidate {
        enum Source {
            case entry(UInt32, Int64)
            case tombstone(Tombstone)
        }
        var sequence: UInt64
        var source: Source
    }

    /// Appends up to `limit + 1` tombstones above `since` of the wanted soups.
    private func collectTombstones(
        after since: UInt64, wanted: Set<SoupName>?, limit: Int, into candidates: inout [Candidate]
    ) throws(StockpotError) {
        var taken = 0
        var failure: StockpotError?
        do {
            try state.view.forEach(from: StoreKeys.tombstone(since + 1)) { key, value in
                guard let sequence = StoreKeys.sequence(ofTombstoneKey: key) else { return false }
                guard let tombstone = Tombstone(sequence: sequence, decoding: value) else {
                    failure = StockpotError(.corruption, "The tombstone of sequence \(sequence) does not decode.")
                    return false
                }
                guard wanted?.contains(SoupName(tombstone.soupName)) ?? true else { return true }
                candidates.append(Candidate(sequence: sequence, source: .tombstone(tombstone)))
                taken += 1
                return taken <= limit
            }
        } catch let error as StockpotError {
            throw error
        } catch let error as StorageError {
            throw StockpotError(error)
        } catch {
            throw StockpotError(.internal, "Reading the tombstones failed: \(error).")
        }
        if let failure { throw failure }
    }

    /// The changes of a page: documents read one batch per soup.
    private func materialize(_ page: ArraySlice<Candidate>) throws(StockpotError) -> [Change] {
        var idsBySoup: [UInt32: [Int64]] = [:]
        for candidate in page {
            if case .entry(let soup, let id) = candidate.source { idsBySoup[soup, default: []].append(id) }
        }
        // Read as slices of a few shared buffers (a page's documents in a handful of
        // allocations, as query pages are).
        var documents: [UInt32: [Int64: ArraySlice<UInt8>]] = [:]
        for (soup, ids) in idsBySoup {
            var byID: [Int64: ArraySlice<UInt8>] = [:]
            byID.reserveCapacity(ids.count)
            for (id, record) in zip(ids, try state.storedEntrySlices(soup: soup, ids: ids)) {
                guard let record else {
                    throw StockpotError(.internal, "Entry \(id) (soup id \(soup)) is in the change index but not stored.")
                }
                byID[id] = record.document
            }
            documents[soup] = byID
        }
        var changes: [Change] = []
        changes.reserveCapacity(page.count)
        for candidate in page {
            switch candidate.source {
            case .entry(let soup, let id):
                changes.append(
                    Change(
                        sequence: candidate.sequence, soupName: state.soups[soup]!.name, operation: .upsert, entryID: id,
                        document: try DocumentDecoding.document(documents[soup]![id]!)))
            case .tombstone(let tombstone):
                changes.append(try Self.change(tombstone))
            }
        }
        return changes
    }

    private static func change(_ tombstone: Tombstone) throws(StockpotError) -> Change {
        var change = Change(
            sequence: tombstone.sequence, soupName: tombstone.soupName, operation: tombstone.kind.operation)
        guard tombstone.kind == .entryDeleted else { return change }
        change.entryID = tombstone.entryID
        if let bytes = tombstone.key {
            guard let value = try? JSONReader.parse(bytes) else {
                throw StockpotError(.corruption, "The key of the tombstone of sequence \(tombstone.sequence) is not JSON.")
            }
            change.key = value
        }
        return change
    }
}
