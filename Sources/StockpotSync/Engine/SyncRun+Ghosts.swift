// Ghosts (docs/sync.md, "Ghosts and resync"): local entries synced from the server that the
// server no longer has (their tombstones purged, or out of the filter now), found by listing
// the server's live keys, and deleted locally when they have no local changes.

import Stockpot
import StockpotJSON

extension SyncRun {
    /// Deletes the clean local entries whose keys the server no longer holds live (under the
    /// filter); entries with local changes stay for sync up.
    func cleanGhosts() throws(SyncError) {
        var condition = "NOT deleted"
        var parameters: [[UInt8]?] = []
        if let filter = options.filter {
            condition += " AND doc @> $1::jsonb"
            parameters.append(JSONWriter.write(filter))
        }
        let result = try execute("SELECT key FROM \(table.qualifiedName) WHERE \(condition)", parameters)
        var live = Set<String>()
        live.reserveCapacity(result.rowCount)
        for row in 0..<result.rowCount { if let key = result.string(row, 0) { live.insert(key) } }
        let states = try read { view throws(StockpotError) in try SyncStateStore.allEntryStates(view, soup: soup) }
        let candidates = states.filter { !$0.deleted && !live.contains($0.key) }
        report(.ghosts, done: 0, total: candidates.count)
        var start = 0
        while start < candidates.count {
            try checkCancelled()
            let batch = candidates[start..<min(start + options.batchSize, candidates.count)]
            var removed = 0
            try write { transaction throws(StockpotError) in
                var deletions: [Int64] = []
                var newStates: [EntryState] = []
                for state in batch {
                    let local = try localEntry(transaction, key: state.key)
                    guard !Self.isDirty(local: local, state: state) else { continue }
                    if let id = local?.objectValue?["_soupEntryId"]?.integerValue { deletions.append(id) }
                    var next = EntryState(key: state.key, baseVersion: state.baseVersion, contentHash: 0, deleted: true)
                    next.stateEntryID = state.stateEntryID
                    newStates.append(next)
                }
                if !deletions.isEmpty { try transaction.delete(deletions, from: soup) }
                try SyncStateStore.write(transaction, soup: soup, states: newStates)
                removed = deletions.count
            }
            summary.deleted += removed
            start += batch.count
            report(.ghosts, done: start, total: candidates.count)
        }
    }
}
