// Forgetting tombstones (docs/changes.md, "Purging and retention").

import StockpotStorage

extension WriteTransaction {
    /// Deletes the tombstones and soup events at or below `sequence` (capped at the last
    /// sequence) and raises the purge horizon to it: the change feed then refuses to start
    /// below it (`changes_expired`). A purge that would not raise the horizon does nothing.
    public func purgeTombstones(through sequence: UInt64) throws(StockpotError) {
        let through = min(sequence, state.lastSequence)
        guard through > state.purgedThrough else { return }
        try atomically { () throws(StockpotError) in
            var keys: [[UInt8]] = []
            state.view.forEachKey(from: StoreKeys.tombstoneStart) { key in
                guard let found = StoreKeys.sequence(ofTombstoneKey: key), found <= through else { return false }
                keys.append(key)
                return true
            }
            // This transaction's own tombstones are not in the view yet.
            for case .put(let key, _) in operations {
                if let found = StoreKeys.sequence(ofTombstoneKey: key), found <= through { keys.append(key) }
            }
            for key in keys { operations.append(.delete(key: key)) }
            state.purgedThrough = through
        }
    }

    /// The sequence of the newest tombstone in the leading run of tombstones older than
    /// `cutoff` (ms since the epoch), for retention; `nil` when the oldest is not that old.
    func newestTombstone(olderThan cutoff: Int64) throws(StockpotError) -> UInt64? {
        var newest: UInt64?
        do {
            try state.view.forEach(from: StoreKeys.tombstoneStart) { key, value in
                guard let found = StoreKeys.sequence(ofTombstoneKey: key),
                    let tombstone = Tombstone(sequence: found, decoding: value), tombstone.time < cutoff
                else { return false }
                newest = found
                return true
            }
        } catch let error as StorageError {
            throw StockpotError(error)
        } catch {
            throw StockpotError(.internal, "Reading the tombstones failed: \(error).")
        }
        return newest
    }
}
