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

    /// Sends every local change not yet on the server, a batch per server transaction.
    func syncUp() throws(SyncError) {
        let (changes, through) = try read { view throws(StockpotError) in try LocalChangeReader(soup: soup, keyPath: keyPath).localChanges(view) }
        var edits = LocalEdits(soup: soup, keyPath: keyPath, since: through)
        let device = try write { transaction throws(StockpotError) in try SyncStateStore.deviceID(transaction) }
        let receipt = try lastReceipt(device: device)
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
                let outcomes = try sendRetryingDeadlocks(sending, device: device, receipt: receipt)
                let raced = zip(sending, outcomes).filter { if case .raced = $0.1 { return true } else { return false } }.map(\.0)
                if attempt == 5 {
                    for change in raced {
                        summary.conflicts.append(
                            SyncConflict(
                                soup: soup, key: change.key, local: change.document, server: nil, baseVersion: change.baseVersion, serverVersion: 0))
                        summary.unresolved += 1
                    }
                    try applyUp(sending, outcomes, edits: &edits)
                    break
                }
                let settled = zip(sending, outcomes).filter { if case .raced = $0.1 { return false } else { return true } }
                try applyUp(settled.map(\.0), settled.map(\.1), edits: &edits)
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

    /// The changes of the last batch this device committed (docs/sync.md, "Receipts"), read
    /// once before anything is sent: the batch whose COMMIT answer a failed run may have lost.
    func lastReceipt(device: String) throws(SyncError) -> [String: SentChange] {
        let rows = try execute(
            """
            SELECT u.key, u.base, u.hash FROM \(table.qualifiedReceipts) AS r, unnest(r.keys, r.bases, r.hashes) AS u(key, base, hash)
            WHERE r.device = $1
            """, [Array(device.utf8)])
        var sent: [String: SentChange] = [:]
        for row in 0..<rows.rowCount {
            if let key = rows.string(row, 0), let base = rows.integer(row, 1), let hash = rows.integer(row, 2) {
                sent[key] = SentChange(base: base, hash: hash)
            }
        }
        return sent
    }

    /// ``sendBatch(_:device:receipt:)``, sent again when the server chose it as a deadlock's
    /// victim or could not serialize it (it was rolled back, so nothing of it happened).
    func sendRetryingDeadlocks(
        _ batch: [LocalChangeReader.LocalChange], device: String, receipt: [String: SentChange]
    ) throws(SyncError) -> [UpOutcome] {
        var attempt = 0
        while true {
            do {
                return try sendBatch(batch, device: device, receipt: receipt)
            } catch  where (error.sqlState == "40P01" || error.sqlState == "40001") && attempt < 10 {
                attempt += 1
                try checkCancelled()
            }
        }
    }

    /// One server transaction: lock the batch's rows, decide each change, write the accepted
    /// and replace this device's receipt with them. `receipt` is the receipt as the run began.
    func sendBatch(
        _ batch: [LocalChangeReader.LocalChange], device: String, receipt: [String: SentChange]
    ) throws(SyncError) -> [UpOutcome] {
        var outcomes = [UpOutcome](repeating: .pending, count: batch.count)
        do throws(SyncError) {
            try execute("BEGIN")
            // Rows are locked until COMMIT, so what is decided below holds when it is written;
            // the document comes back only where the version moved (a conflict to judge).
            let found = try execute(
                """
                SELECT t.key, t.version, t.deleted, CASE WHEN t.version = x.base THEN NULL ELSE t.doc::text END
                FROM \(table.qualifiedName) AS t JOIN unnest($1::text[], $2::bigint[]) AS x(key, base) USING (key)
                ORDER BY t.key
                FOR UPDATE OF t
                """,
                [SQLText.array(batch.map(\.key)), SQLText.array(batch.map { Optional($0.baseVersion) })])
            var server: [String: (version: Int64, deleted: Bool, document: JSONValue?)] = [:]
            for row in 0..<found.rowCount {
                guard let key = found.string(row, 0), let version = found.integer(row, 1) else { continue }
                let text = found.isNull(row, 3) ? nil : found.bytes(row, 3)
                let document: JSONValue?
                do {
                    document = try text.map { bytes throws(JSONError) in try JSONReader.parse(bytes) }
                } catch {
                    throw SyncError(.schemaMismatch, "The server row of key \(key) holds no JSON document: \(error).", soup: soup)
                }
                server[key] = (version, found.bool(row, 2) ?? false, document)
            }
            // What to write: key, document (nil: tombstone), the version it must still have.
            var writes: [(position: Int, document: JSONValue?, bytes: [UInt8]?, expected: Int64?, resolved: Bool)] = []
            for (position, change) in batch.enumerated() {
                guard let row = server[change.key] else {
                    if change.document == nil {
                        outcomes[position] = .neverOnServer
                    } else {
                        writes.append((position, change.document, change.bytes, nil, false))
                    }
                    continue
                }
                if row.version == change.baseVersion {
                    if change.document == nil, row.deleted {
                        outcomes[position] = .alreadyThere(version: row.version)
                    } else {
                        writes.append((position, change.document, change.document == nil ? nil : change.bytes, row.version, false))
                    }
                    continue
                }
                let serverDocument = row.deleted ? nil : row.document
                if Self.sameContent(change.document, serverDocument) {
                    outcomes[position] = .alreadyThere(version: row.version)
                    continue
                }
                if receipt[change.key] == SentChange(base: change.baseVersion, hash: change.contentHash) {
                    outcomes[position] = .overtaken(version: row.version, document: serverDocument)
                    continue
                }
                let conflict = SyncConflict(
                    soup: soup, key: change.key, local: change.document, server: serverDocument,
                    baseVersion: change.baseVersion, serverVersion: row.version)
                summary.conflicts.append(conflict)
                switch options.conflictPolicy {
                case .serverWins:
                    outcomes[position] = .takeServer(version: row.version, document: serverDocument)
                case .clientWins:
                    writes.append((position, change.document, change.document == nil ? nil : change.bytes, row.version, false))
                case .fail:
                    outcomes[position] = .pending
                    summary.unresolved += 1
                case .merge(let resolve):
                    switch resolve(conflict) {
                    case .server: outcomes[position] = .takeServer(version: row.version, document: serverDocument)
                    case .delete: writes.append((position, nil, nil, row.version, true))
                    case .document(let merged):
                        let stripped = DocumentContent.stripped(merged)
                        writes.append((position, stripped, DocumentContent.bytes(stripped), row.version, true))
                    }
                }
            }
            if !writes.isEmpty {
                // The batch's writes replace this device's receipt, in the same transaction: what
                // a rerun that never heard COMMIT's answer finds there.
                let result = try execute(
                    """
                    WITH x AS (
                        SELECT * FROM unnest($1::text[], $2::jsonb[], $3::boolean[], $4::bigint[], $6::bigint[], $7::bigint[])
                            AS x(key, doc, deleted, expected, base, hash)),
                    updated AS (
                        UPDATE \(table.qualifiedName) AS t SET doc = x.doc, deleted = x.deleted, device = $5
                        FROM x WHERE x.expected IS NOT NULL AND t.key = x.key AND t.version = x.expected
                        RETURNING t.key, t.version),
                    inserted AS (
                        INSERT INTO \(table.qualifiedName) (key, doc, deleted, device)
                        SELECT key, doc, deleted, $5 FROM x WHERE x.expected IS NULL
                        ON CONFLICT (key) DO NOTHING
                        RETURNING key, version),
                    written AS (SELECT key, version FROM updated UNION ALL SELECT key, version FROM inserted),
                    receipt AS (
                        INSERT INTO \(table.qualifiedReceipts) (device, keys, bases, hashes)
                        SELECT $5, array_agg(x.key), array_agg(x.base), array_agg(x.hash) FROM written JOIN x USING (key)
                        HAVING count(*) > 0
                        ON CONFLICT (device) DO UPDATE SET keys = EXCLUDED.keys, bases = EXCLUDED.bases, hashes = EXCLUDED.hashes)
                    SELECT key, version FROM written
                    """,
                    [
                        SQLText.array(writes.map { batch[$0.position].key }),
                        SQLText.array(writes.map(\.bytes)),
                        SQLText.array(writes.map { $0.document == nil }),
                        SQLText.array(writes.map(\.expected)),
                        Array(device.utf8),
                        SQLText.array(writes.map { Optional(batch[$0.position].baseVersion) }),
                        SQLText.array(writes.map { Optional(batch[$0.position].contentHash) }),
                    ])
                var versions: [String: Int64] = [:]
                for row in 0..<result.rowCount {
                    if let key = result.string(row, 0), let version = result.integer(row, 1) { versions[key] = version }
                }
                for write in writes {
                    if let version = versions[batch[write.position].key] {
                        outcomes[write.position] = .written(version: version, document: write.document, resolved: write.resolved)
                    } else {
                        outcomes[write.position] = .raced  // another device created the row meanwhile
                    }
                }
            }
            try execute("COMMIT")
        } catch {
            rollBack()
            throw error
        }
        return outcomes
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
