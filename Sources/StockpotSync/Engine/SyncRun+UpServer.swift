// The server side of a sync up batch (docs/sync.md, "Sync up"): first one statement that
// writes every change whose row is still at its base version (and every new key), then, only
// for the changes it could not write, a transaction that locks their rows in key order and
// decides each one (already there, overtaken, or a conflict for the policy). Both leave this
// device's receipt (docs/sync.md, "Receipts") in the same server transaction as the writes.

import Stockpot
import StockpotJSON

extension SyncRun {
    /// One row to write: a change's document (nil: a tombstone) and the version the row must
    /// still have (nil: a new key).
    struct PlannedWrite {
        var position: Int
        var document: JSONValue?
        var bytes: [UInt8]?
        var expected: Int64?
        /// A merge's result rather than the change itself.
        var resolved: Bool
    }

    /// The changes of the last batch this device committed, read once before anything is
    /// sent: the batch whose COMMIT answer a failed run may have lost.
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

    /// ``sendBatch(_:device:receipt:carried:)``, sent again when the server chose it as a deadlock's
    /// victim or could not serialize it (that statement or transaction was rolled back; what
    /// an earlier one committed is found again as already there).
    func sendRetryingDeadlocks(
        _ batch: [LocalChangeReader.LocalChange], device: String, receipt: inout [String: SentChange], carried: [String: SentChange]
    ) throws(SyncError) -> [UpOutcome] {
        var attempt = 0
        while true {
            do {
                return try sendBatch(batch, device: device, receipt: &receipt, carried: carried)
            } catch  where (error.sqlState == "40P01" || error.sqlState == "40001") && attempt < 10 {
                attempt += 1
                try checkCancelled()
            }
        }
    }

    /// Sends one batch. `receipt` is the device's receipt as the run began, with what this
    /// run has written since added (a batch sent again after a deadlock finds its own first
    /// statement's writes there); `carried`, the part of the receipt this run has not yet
    /// recorded in the store, which the receipt this batch leaves keeps.
    func sendBatch(
        _ batch: [LocalChangeReader.LocalChange], device: String, receipt: inout [String: SentChange], carried: [String: SentChange]
    ) throws(SyncError) -> [UpOutcome] {
        var outcomes = [UpOutcome](repeating: .pending, count: batch.count)
        let hopeful = batch.indices.filter { Self.mayWriteBlind(batch[$0], receipt: receipt) }
        let planned = hopeful.map { position in
            let change = batch[position]
            return PlannedWrite(
                position: position, document: change.document, bytes: change.document == nil ? nil : change.bytes,
                expected: change.baseVersion > 0 ? change.baseVersion : nil, resolved: false)
        }
        var undecided = batch.indices.filter { !Self.mayWriteBlind(batch[$0], receipt: receipt) }
        if !planned.isEmpty {
            // One statement, its own transaction: a row that moved, or a key another device
            // created, is simply not written.
            let versions = try writeRows(planned, of: batch, device: device, keepingInReceipt: carried)
            for write in planned {
                let change = batch[write.position]
                if let version = versions[change.key] {
                    outcomes[write.position] = .written(version: version, document: write.document, resolved: false)
                    receipt[change.key] = SentChange(base: change.baseVersion, hash: change.contentHash)
                } else {
                    undecided.append(write.position)
                }
            }
        }
        guard !undecided.isEmpty else { return outcomes }
        undecided.sort()
        do throws(SyncError) {
            try execute("BEGIN")
            try decideLocked(undecided, of: batch, device: device, receipt: receipt, into: &outcomes)
            try execute("COMMIT")
        } catch {
            rollBack()
            throw error
        }
        return outcomes
    }

    /// Whether `change` goes in a batch's first statement, written only where its row is
    /// still at its base version, or inserted where its key is absent when it has no base
    /// (0, or ``EntryState/purgedBase``). Not a delete without a base, which has nothing to
    /// send unless a row exists; not a change without a base that the receipt holds, which an
    /// earlier run may have inserted before its row was deleted and purged: both are decided
    /// against their rows.
    static func mayWriteBlind(_ change: LocalChangeReader.LocalChange, receipt: [String: SentChange]) -> Bool {
        guard change.baseVersion <= 0 else { return true }
        guard change.document != nil else { return false }
        return receipt[change.key] != SentChange(base: change.baseVersion, hash: change.contentHash)
    }

    /// Locks the rows of the changes at `positions` (in key order, so two devices' batches do
    /// not deadlock on each other's rows) and decides each change against its row, writing
    /// what the decisions accept. Runs inside a server transaction.
    private func decideLocked(
        _ positions: [Int], of batch: [LocalChangeReader.LocalChange], device: String, receipt: [String: SentChange],
        into outcomes: inout [UpOutcome]
    ) throws(SyncError) {
        // Rows are locked until COMMIT, so what is decided below holds when it is written;
        // the document comes back only where the version moved (a conflict to judge).
        let found = try execute(
            """
            SELECT t.key, t.version, t.deleted, CASE WHEN t.version = x.base THEN NULL ELSE t.doc::text END
            FROM \(table.qualifiedName) AS t JOIN unnest($1::text[], $2::bigint[]) AS x(key, base) USING (key)
            ORDER BY t.key
            FOR UPDATE OF t
            """,
            [SQLText.array(positions.map { batch[$0].key }), SQLText.array(positions.map { Optional(batch[$0].baseVersion) })])
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
        var writes: [PlannedWrite] = []
        for position in positions {
            let change = batch[position]
            let bytes = change.document == nil ? nil : change.bytes
            guard let row = server[change.key] else {
                if change.document == nil {
                    outcomes[position] = .neverOnServer
                } else if receipt[change.key] == SentChange(base: change.baseVersion, hash: change.contentHash) {
                    // An earlier run wrote it; rows leave the table only when a tombstone is
                    // purged, so another device deleted it since.
                    outcomes[position] = .overtakenByPurge
                } else {
                    writes.append(PlannedWrite(position: position, document: change.document, bytes: bytes, expected: nil, resolved: false))
                }
                continue
            }
            if row.version == change.baseVersion {
                if change.document == nil, row.deleted {
                    outcomes[position] = .alreadyThere(version: row.version)
                } else {
                    writes.append(PlannedWrite(position: position, document: change.document, bytes: bytes, expected: row.version, resolved: false))
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
                writes.append(PlannedWrite(position: position, document: change.document, bytes: bytes, expected: row.version, resolved: false))
            case .fail:
                outcomes[position] = .pending
                summary.unresolved += 1
            case .merge(let resolve):
                switch resolve(conflict) {
                case .server: outcomes[position] = .takeServer(version: row.version, document: serverDocument)
                case .delete: writes.append(PlannedWrite(position: position, document: nil, bytes: nil, expected: row.version, resolved: true))
                case .document(let merged):
                    let stripped = DocumentContent.stripped(merged)
                    writes.append(
                        PlannedWrite(
                            position: position, document: stripped, bytes: DocumentContent.bytes(stripped), expected: row.version, resolved: true))
                }
            }
        }
        guard !writes.isEmpty else { return }
        let versions = try writeRows(writes, of: batch, device: device, keepingInReceipt: nil)
        for write in writes {
            if let version = versions[batch[write.position].key] {
                outcomes[write.position] = .written(version: version, document: write.document, resolved: write.resolved)
            } else {
                outcomes[write.position] = .raced  // another device created the row meanwhile
            }
        }
    }

    /// Writes rows in one statement: an update where the row still has the expected version
    /// (a tombstone is not written over a tombstone), an insert where the key is new. When
    /// rows are written, the receipt becomes `keeping` and the changes written, or, with
    /// `keeping` nil (later in a batch), has the changes written added. Returns the new
    /// version of each key written.
    private func writeRows(
        _ writes: [PlannedWrite], of batch: [LocalChangeReader.LocalChange], device: String, keepingInReceipt keeping: [String: SentChange]?
    ) throws(SyncError) -> [String: Int64] {
        let receipts = table.qualifiedReceipts
        let onConflict =
            keeping != nil
            ? "keys = EXCLUDED.keys, bases = EXCLUDED.bases, hashes = EXCLUDED.hashes"
            : "keys = r.keys || EXCLUDED.keys, bases = r.bases || EXCLUDED.bases, hashes = r.hashes || EXCLUDED.hashes"
        let kept = (keeping ?? [:]).sorted { $0.key < $1.key }
        let result = try execute(
            """
            WITH x AS (
                SELECT * FROM unnest($1::text[], $2::jsonb[], $3::boolean[], $4::bigint[], $6::bigint[], $7::bigint[])
                    AS x(key, doc, deleted, expected, base, hash)),
            updated AS (
                UPDATE \(table.qualifiedName) AS t SET doc = x.doc, deleted = x.deleted, device = $5
                FROM x WHERE x.expected IS NOT NULL AND t.key = x.key AND t.version = x.expected AND NOT (t.deleted AND x.deleted)
                RETURNING t.key, t.version),
            inserted AS (
                INSERT INTO \(table.qualifiedName) (key, doc, deleted, device)
                SELECT key, doc, deleted, $5 FROM x WHERE x.expected IS NULL
                ON CONFLICT (key) DO NOTHING
                RETURNING key, version),
            written AS (SELECT key, version FROM updated UNION ALL SELECT key, version FROM inserted),
            receipt AS (
                INSERT INTO \(receipts) AS r (device, keys, bases, hashes)
                SELECT $5, $8::text[] || array_agg(x.key), $9::bigint[] || array_agg(x.base), $10::bigint[] || array_agg(x.hash)
                FROM written JOIN x USING (key)
                HAVING count(*) > 0
                ON CONFLICT (device) DO UPDATE SET \(onConflict))
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
                SQLText.array(kept.map(\.key)),
                SQLText.array(kept.map { Optional($0.value.base) }),
                SQLText.array(kept.map { Optional($0.value.hash) }),
            ])
        var versions: [String: Int64] = [:]
        for row in 0..<result.rowCount {
            if let key = result.string(row, 0), let version = result.integer(row, 1) { versions[key] = version }
        }
        return versions
    }
}
