// Sync up (docs/sync.md, "Sync up"): the local changes not yet on the server (from the change
// feed since the soup's up sequence, plus entries awaiting a conflict's resolution), sent in
// batches with the server version each was based on; conflicts resolved by the policy.

import Stockpot
import StockpotJSON

extension SyncRun {
    /// What the server round of a batch decided for one change.
    enum UpOutcome {
        /// Written on the server at `version`; the local entry takes `document` when it is
        /// not the one sent (a merge), nil meaning deleted.
        case written(version: Int64, document: JSONValue?, resolved: Bool)
        /// The server already holds this content at `version` (an earlier run sent it, or
        /// another device made the same change).
        case alreadyThere(version: Int64)
        /// An earlier run wrote this very change (its COMMIT's answer was lost) and the row
        /// has been written since: the local entry takes the row, as a sync down would have.
        case overtaken(version: Int64, document: JSONValue?)
        /// As `overtaken`, but the row has since been deleted and its tombstone purged: the
        /// local entry is deleted, its state based on ``EntryState/purgedBase``.
        case overtakenByPurge
        /// The server's version stays and the local entry takes it (nil: a tombstone).
        case takeServer(version: Int64, document: JSONValue?)
        /// Left unsynced: a conflict under `fail`.
        case pending
        /// Another device created the row between this batch's read and its write: sent
        /// again in a batch of its own, where it meets the row.
        case raced
        /// A delete of an entry the server never had: nothing to send.
        case neverOnServer
    }

    /// A change as this device's receipt on the server records it: its key's base version
    /// and its content hash (0: a delete).
    struct SentChange: Equatable {
        var base: Int64
        var hash: Int64
    }

    /// Sends every local change not yet on the server, in batches (docs/sync.md, "Sync up").
    func syncUp() throws(SyncError) {
        let (changes, through) = try read { view throws(StockpotError) in try LocalChangeReader(soup: soup, keyPath: keyPath).localChanges(view) }
        var edits = LocalEdits(soup: soup, keyPath: keyPath, since: through)
        let device = try write { transaction throws(StockpotError) in try SyncStateStore.deviceID(transaction) }
        var receipt = try lastReceipt(device: device)
        // What the receipt says of keys still to send is kept in it until their batch is
        // recorded here, so that a run failing before then leaves it for the next.
        let changed = Set(changes.map(\.key))
        var carried = receipt.filter { changed.contains($0.key) }
        report(.up, done: 0, total: changes.count)
        var done = 0
        var start = 0
        while start < changes.count {
            try checkCancelled()
            let batch = Array(changes[start..<min(start + options.batchSize, changes.count)])
            var sending = batch
            // A change that raced another device's insert is sent again: the row now exists,
            // so it is decided like any other (a few rounds; each needs a new insert to lose).
            for attempt in 1...5 {
                let outcomes = try sendRetryingDeadlocks(sending, device: device, receipt: &receipt, carried: carried)
                let raced = zip(sending, outcomes).filter { if case .raced = $0.1 { return true } else { return false } }.map(\.0)
                if attempt == 5 {
                    for change in raced {
                        summary.conflicts.append(
                            SyncConflict(
                                soup: soup, key: change.key, local: change.document, server: nil, baseVersion: change.baseVersion, serverVersion: 0))
                        summary.unresolved += 1
                    }
                    try applyUp(sending, outcomes, edits: &edits)
                    for change in sending { carried[change.key] = nil }
                    break
                }
                let settled = zip(sending, outcomes).filter { if case .raced = $0.1 { return false } else { return true } }
                try applyUp(settled.map(\.0), settled.map(\.1), edits: &edits)
                for (change, _) in settled { carried[change.key] = nil }
                if raced.isEmpty { break }
                sending = raced
            }
            start += batch.count
            done += batch.count
            report(.up, done: done, total: changes.count)
        }
        try write { transaction throws(StockpotError) in
            var cursor = try SyncStateStore.cursor(transaction, soup: soup)
            cursor.upSequence = max(cursor.upSequence, through)
            cursor.lastUpAt = Self.now()
            try SyncStateStore.write(transaction, soup: soup, states: [], cursor: cursor)
        }
    }

    /// Records a batch's outcomes in the store, in one transaction: base versions and hashes,
    /// and the documents the local entries take (server wins, merges). A local entry changed
    /// since it was read keeps its new content (it stays unsynced, based on the new version).
    /// Only entries `edits` shows changed since the changes were read are looked up again.
    func applyUp(_ batch: [LocalChangeReader.LocalChange], _ outcomes: [UpOutcome], edits: inout LocalEdits) throws(SyncError) {
        var outcome = summary
        var gathered = edits
        try write { transaction throws(StockpotError) in
            try gathered.gather(transaction.startView)
            var states: [EntryState] = []
            var upserts: [JSONValue] = []
            var deletions: [Int64] = []
            for (change, result) in zip(batch, outcomes) {
                outcome.considered += 1
                var local: JSONValue?? = nil
                var unchanged = true
                if gathered.mayHaveChanged(change) {
                    let entry = try localEntry(transaction, key: change.key)
                    local = .some(entry)
                    unchanged =
                        entry.map { DocumentContent.hash(DocumentContent.stripped($0)) == change.contentHash && change.document != nil }
                        ?? (change.document == nil)
                }
                func take(_ document: JSONValue?) throws(StockpotError) {
                    guard unchanged else { return }
                    if let document {
                        upserts.append(document)
                        return
                    }
                    let entry: JSONValue?
                    if let local { entry = local } else { entry = try localEntry(transaction, key: change.key) }
                    if let id = entry?.objectValue?["_soupEntryId"]?.integerValue { deletions.append(id) }
                }
                switch result {
                case .written(let version, let document, let resolved):
                    if resolved {
                        try take(document)
                        states.append(Self.state(change, version, document))
                    } else {
                        states.append(Self.state(change, version))
                    }
                    if document == nil { outcome.deleted += 1 } else { outcome.applied += 1 }
                case .alreadyThere(let version):
                    states.append(Self.state(change, version))
                    outcome.unchanged += 1
                case .overtaken(let version, let document):
                    try take(document)
                    states.append(Self.state(change, version, document))
                    outcome.unchanged += 1
                case .overtakenByPurge:
                    try take(nil)
                    states.append(Self.state(change, EntryState.purgedBase, nil))
                    outcome.unchanged += 1
                case .takeServer(let version, let document):
                    try take(document)
                    states.append(Self.state(change, version, document))
                case .pending, .raced:
                    var state = change.state ?? EntryState(key: change.key, baseVersion: 0, contentHash: 0, deleted: false)
                    state.pending = true
                    states.append(state)
                case .neverOnServer:
                    var state = EntryState(key: change.key, baseVersion: change.baseVersion, contentHash: 0, deleted: true)
                    state.stateEntryID = change.state?.stateEntryID
                    states.append(state)
                }
            }
            if !deletions.isEmpty { try transaction.delete(deletions, from: soup) }
            if !upserts.isEmpty { _ = try transaction.upsert(upserts, into: soup, externalIdPath: keyPath) }
            try SyncStateStore.write(transaction, soup: soup, states: states)
        }
        edits = gathered
        summary = outcome
    }

    /// The state of a change's entry in step with a server version holding `document`
    /// (nil: tombstone), replacing the state it had.
    static func state(_ change: LocalChangeReader.LocalChange, _ version: Int64, _ document: JSONValue?) -> EntryState {
        var state = EntryState(
            key: change.key, baseVersion: version,
            contentHash: document.map { DocumentContent.hash($0) } ?? 0, deleted: document == nil)
        state.stateEntryID = change.state?.stateEntryID
        return state
    }

    /// The state of a change's entry in step with a server version holding the change itself.
    static func state(_ change: LocalChangeReader.LocalChange, _ version: Int64) -> EntryState {
        var state = EntryState(key: change.key, baseVersion: version, contentHash: change.contentHash, deleted: change.document == nil)
        state.stateEntryID = change.state?.stateEntryID
        return state
    }

    /// Whether a local and a server version hold the same content (both deleted counts).
    static func sameContent(_ local: JSONValue?, _ server: JSONValue?) -> Bool {
        switch (local, server) {
        case (nil, nil): return true
        case (let a?, let b?): return DocumentContent.same(a, b)
        default: return false
        }
    }
}
