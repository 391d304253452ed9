// Sync down (docs/sync.md, "Sync down"): in one REPEATABLE READ snapshot, the rows written by
// transactions at or above the watermark, applied by key in batches, idempotently by
// (key, version); the new watermark is the snapshot's xmin, so a transaction still running
// at the snapshot (a late commit with a lower version) is read again next time.

import Stockpot
import StockpotCore
import StockpotJSON

extension SyncRun {
    /// One server row as sync down reads it.
    struct ServerRow {
        var key: String
        var version: Int64
        var deleted: Bool
        var document: [UInt8]
    }

    /// Applies the server's changes since the watermark (all, `fromScratch`), then cleans
    /// ghosts when tombstones the watermark had not reached were purged.
    func syncDown(fromScratch: Bool) throws(SyncError) {
        var cursor = try read { view throws(StockpotError) in try SyncStateStore.cursor(view, soup: soup) }
        if fromScratch || cursor.filter != options.filter {
            cursor.watermark = 0
            cursor.filter = options.filter
        }
        let ghostsPossible = cursor.watermark != 0 && cursor.watermark <= table.purgedThrough
        var condition = "txid >= $1::xid8"
        var parameters: [[UInt8]?] = [Array(String(cursor.watermark).utf8)]
        if let filter = options.filter {
            condition += " AND (deleted OR doc @> $2::jsonb)"
            parameters.append(JSONWriter.write(filter))
        }
        let newWatermark: UInt64
        do throws(SyncError) {
            // The snapshot is taken by the first statement after BEGIN: its xmin is below every
            // transaction it cannot see.
            let snapshot = try execute(
                "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT pg_snapshot_xmin(pg_current_snapshot())::text")
            guard let text = snapshot.string(0, 0), let xmin = UInt64(text) else {
                throw SyncError(.serverError, "The server's snapshot has no xmin.", soup: soup)
            }
            newWatermark = xmin
            let total = Int(try execute("SELECT count(*) FROM \(table.qualifiedName) WHERE \(condition)", parameters).integer(0, 0) ?? 0)
            try execute(
                "DECLARE stockpot_down NO SCROLL CURSOR FOR SELECT key, version, deleted, doc::text FROM \(table.qualifiedName) WHERE \(condition)",
                parameters)
            report(.down, done: 0, total: total)
            // A soup with no entries and no sync state (a first sync) takes the rows as plain
            // inserts: no key to look up, no state to read, while nothing else writes to it.
            var fresh = try read { view throws(StockpotError) in
                let count: Int = try view.count(of: soup)
                let states: [EntryState] = try SyncStateStore.allEntryStates(view, soup: soup, limit: 1)
                return count == 0 && states.isEmpty
            }
            var inserted = 0
            var done = 0
            while true {
                try checkCancelled()
                let result = try execute("FETCH \(options.batchSize) FROM stockpot_down")
                guard result.rowCount > 0 else { break }
                var rows: [ServerRow] = []
                rows.reserveCapacity(result.rowCount)
                for index in 0..<result.rowCount {
                    rows.append(
                        ServerRow(
                            key: result.string(index, 0) ?? "", version: result.integer(index, 1) ?? 0,
                            deleted: result.bool(index, 2) ?? false, document: result.bytes(index, 3)))
                }
                try applyDown(rows, fresh: &fresh, inserted: &inserted)
                done += rows.count
                report(.down, done: done, total: max(total, done))
            }
            try execute("COMMIT")
        } catch {
            rollBack()
            throw error
        }
        cursor.watermark = newWatermark
        cursor.lastDownAt = Self.now()
        let saved = cursor
        try write { transaction throws(StockpotError) in
            try SyncStateStore.write(transaction, soup: soup, states: [], cursor: saved)
        }
        if ghostsPossible { try cleanGhosts() }
    }

    /// Applies one batch of server rows in one store transaction, with their entry states.
    /// `fresh` says the soup held nothing of its own before this sync and `inserted` entries
    /// since; it is checked again in the transaction and cleared once anything else wrote.
    func applyDown(_ rows: [ServerRow], fresh: inout Bool, inserted: inout Int) throws(SyncError) {
        // Each document read, stripped, written compact and hashed before the transaction,
        // on every core: the transaction then only compares versions and writes.
        struct Prepared {
            var bytes: [UInt8]
            var contentHash: Int64
        }
        let prepared = Parallel.map(count: rows.count, minimumPerPart: 256) { index -> Result<Prepared?, JSONError> in
            guard !rows[index].deleted else { return .success(nil) }
            return Result { () throws(JSONError) -> Prepared? in
                let stripped = DocumentContent.stripped(try JSONReader.parse(rows[index].document))
                return Prepared(bytes: DocumentContent.bytes(stripped), contentHash: DocumentContent.hash(stripped))
            }
        }
        var documents: [Prepared?] = []
        documents.reserveCapacity(rows.count)
        for (row, result) in zip(rows, prepared) {
            switch result {
            case .success(let document): documents.append(document)
            case .failure(let error):
                throw SyncError(.schemaMismatch, "The server row of key \(row.key) holds no JSON document: \(error).", soup: soup)
            }
        }
        var outcome = summary
        var stillFresh = fresh
        var insertedNow = 0
        try write { transaction throws(StockpotError) in
            if stillFresh {
                let count = try transaction.count(of: soup)
                stillFresh = count == inserted
            }
            var states: [String: EntryState] = [:]
            if !stillFresh { states = try SyncStateStore.entryStates(transaction, soup: soup, keys: Set(rows.map(\.key))) }
            var upserts: [[UInt8]] = []
            var deletions: [Int64] = []
            var newStates: [EntryState] = []
            let checksLocal = options.mergeMode == .leaveIfChanged
            for (row, document) in zip(rows, documents) {
                outcome.considered += 1
                let state = states[row.key]
                if let state, state.baseVersion >= row.version {
                    outcome.unchanged += 1
                    continue
                }
                // The local entry is needed to judge it (leaveIfChanged) and to delete it.
                let local = !stillFresh && (checksLocal || row.deleted) ? try localEntry(transaction, key: row.key) : nil
                if checksLocal, Self.isDirty(local: local, state: state) {
                    outcome.skipped += 1
                    continue
                }
                if row.deleted {
                    if let id = local?.objectValue?["_soupEntryId"]?.integerValue {
                        deletions.append(id)
                        outcome.deleted += 1
                    } else {
                        outcome.unchanged += 1
                    }
                    var next = EntryState(key: row.key, baseVersion: row.version, contentHash: 0, deleted: true)
                    next.stateEntryID = state?.stateEntryID
                    newStates.append(next)
                } else if let document {
                    upserts.append(document.bytes)
                    var next = EntryState(key: row.key, baseVersion: row.version, contentHash: document.contentHash, deleted: false)
                    next.stateEntryID = state?.stateEntryID
                    newStates.append(next)
                    outcome.applied += 1
                }
            }
            if !deletions.isEmpty { try transaction.delete(deletions, from: soup) }
            if !upserts.isEmpty { _ = try transaction.upsert(json: upserts, into: soup, externalIdPath: stillFresh ? nil : keyPath) }
            try SyncStateStore.write(transaction, soup: soup, states: newStates, inserting: stillFresh)
            insertedNow = upserts.count
        }
        fresh = stillFresh
        inserted += insertedNow
        summary = outcome
    }
}
