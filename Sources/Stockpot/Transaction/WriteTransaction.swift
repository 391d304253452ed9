// A write transaction: a working copy of the store state, the engine operations it has made,
// and the entries it has written (so it reads its own writes). Committed by `Store.write`.

import StockpotIndex
import StockpotStorage

/// The changes of one `Store.write` call, across soups, committed atomically when the closure
/// returns and discarded when it throws.
///
/// Each method is atomic on its own: when it throws, the transaction is as it was before the
/// call, so a caller may catch the error and go on. Use a transaction only inside the closure
/// it was handed to, on that thread; it is not `Sendable`.
public final class WriteTransaction {
    /// The state the transaction started from.
    let base: StoreState
    /// The working state: the base with this transaction's changes, its indexes complete.
    /// Reading or changing it first runs the index inserts an upsert left (see
    /// ``unindexed``), so every operation sees its own earlier writes.
    var state: StoreState {
        get {
            indexPendingEntries()
            return working
        }
        _modify {
            indexPendingEntries()
            yield &working
        }
        set {
            unindexed = nil
            working = newValue
        }
    }
    /// The working state as it is: it may lack ``unindexed``'s index entries.
    private var working: StoreState
    /// New entries of one soup that are in the working state and the batch, but not yet in
    /// the soup's indexes: an upsert of new entries only (the ingestion case) leaves its index
    /// inserts here, so that a commit right after it runs them while the batch is written
    /// (``commitIndexing(alongside:)``), and anything else runs them first.
    private var unindexed: (soup: UInt32, entries: [IndexedEntry])?
    /// Entry puts and deletes, in order; catalog records are added at commit.
    var operations: [WriteBatch.Operation] = []
    /// Entries written by this transaction: a record, or nil for a deletion.
    var written: [EntryKey: EntryRecord?] = [:]
    /// While a method runs: how to undo its changes to `written`.
    private var undoWritten: [(EntryKey, EntryRecord??)] = []
    /// Whether a commit that took no sequence for a change takes one of its own (see
    /// ``makeBatch()``). A restore turns it off: it writes the sequences it is given, and
    /// its soups' registrations must not move the counter past the source's.
    var takesCommitSequence = true
    /// Milliseconds since the epoch, the modification time of everything written.
    let now: Int64
    let limits: StoreLimits

    init(base: StoreState, now: Int64, limits: StoreLimits) {
        self.base = base
        working = base
        self.now = now
        self.limits = limits
    }

    /// Runs `body`; when it throws, restores the state, operations and writes it changed.
    func atomically<R>(_ body: () throws(StockpotError) -> R) throws(StockpotError) -> R {
        let savedState = state
        let savedOperationCount = operations.count
        undoWritten.removeAll(keepingCapacity: true)
        do {
            return try body()
        } catch {
            state = savedState
            operations.removeSubrange(savedOperationCount...)
            for (key, previous) in undoWritten.reversed() { written[key] = previous }
            throw error
        }
    }

    /// Leaves the index inserts of `entries`, new entries of soup `soup` that the working
    /// state and the batch hold already, to the next access to ``state`` or to the commit.
    /// Entries left before are indexed first.
    func indexLater(_ entries: [IndexedEntry], soup: UInt32) {
        indexPendingEntries()
        unindexed = (soup, entries)
    }

    /// Runs the index inserts ``indexLater(_:soup:)`` left, if any.
    private func indexPendingEntries() {
        commitIndexing {}
    }

    /// Runs the index inserts ``indexLater(_:soup:)`` left, if any, while the calling thread
    /// runs `work` (the commit's write of the batch, which does not depend on the indexes);
    /// returns when both are done.
    func commitIndexing(alongside work: () -> Void) {
        guard let (soup, entries) = unindexed else { return work() }
        unindexed = nil
        working.complete(soup: soup) { $0.insertNew(entries, alongside: work) }
    }

    /// Records a put of entry `key`.
    func recordPut(_ key: EntryKey, _ record: EntryRecord) {
        recordPut(key, record, encoded: record.encoded())
    }

    /// Records a put of entry `key` whose record's bytes (`record.encoded()`) are made already.
    func recordPut(_ key: EntryKey, _ record: EntryRecord, encoded: [UInt8]) {
        undoWritten.append((key, written[key]))
        written[key] = .some(record)
        operations.append(.put(key: StoreKeys.entry(soup: key.soup, entry: key.id), value: encoded))
    }

    /// Makes room for `count` more entry writes.
    func reserveWrites(_ count: Int) {
        written.reserveCapacity(written.count + count)
        operations.reserveCapacity(operations.count + count)
        undoWritten.reserveCapacity(undoWritten.count + count)
    }

    /// Takes the next sequence number (docs/changes.md) for one change of this transaction.
    ///
    /// - Throws: `limit_exceeded` when the store's sequences are used up.
    func takeSequence() throws(StockpotError) -> UInt64 {
        try takeSequences(1)
    }

    /// Takes `count` consecutive sequence numbers; returns the first.
    func takeSequences(_ count: Int) throws(StockpotError) -> UInt64 {
        // Kept below 2^63: the change index holds sequences as signed integers.
        guard UInt64(Int64.max) - working.lastSequence >= UInt64(count) else {
            throw StockpotError(.limitExceeded, "The store has used every sequence number.")
        }
        working.lastSequence += UInt64(count)
        return working.lastSequence - UInt64(count) + 1
    }

    /// Records a tombstone or soup event.
    func recordTombstone(_ tombstone: Tombstone) {
        operations.append(.put(key: StoreKeys.tombstone(tombstone.sequence), value: tombstone.encoded()))
    }

    /// Records a delete of entry `key`.
    func recordDelete(_ key: EntryKey) {
        undoWritten.append((key, written[key]))
        written[key] = .some(nil)
        operations.append(.delete(key: StoreKeys.entry(soup: key.soup, entry: key.id)))
    }

    /// Entry `id` of soup `soup` as this transaction sees it.
    func entryRecord(soup: UInt32, id: Int64) throws(StockpotError) -> EntryRecord? {
        if let own = written[EntryKey(soup: soup, id: id)] { return own }
        return try state.storedEntry(soup: soup, id: id)
    }

    /// The engine batch: the entry operations, then every catalog record that changed, then
    /// the store record. A batch that writes anything moves the sequence: when no change took
    /// a number, the commit takes one of its own.
    ///
    /// - Throws: `limit_exceeded` when the store's sequences are used up.
    func makeBatch() throws(StockpotError) -> WriteBatch {
        var batch = WriteBatch()
        for operation in operations {
            switch operation {
            case .put(let key, let value): batch.put(key, value)
            case .delete(let key): batch.delete(key)
            }
        }
        // Catalog records do not depend on the indexes: `working`, so as not to run the
        // pending index inserts before the commit can overlap them with the write.
        for (id, soup) in working.soups where base.soups[id]?.record != soup.record {
            batch.put(StoreKeys.catalog(soup: id), soup.record.encoded())
        }
        for id in base.soups.keys where working.soups[id] == nil {
            batch.delete(StoreKeys.catalog(soup: id))
        }
        guard
            !batch.isEmpty || working.nextSoupID != base.nextSoupID || working.purgedThrough != base.purgedThrough
                || working.lastSequence != base.lastSequence
        else {
            return batch
        }
        if working.lastSequence == base.lastSequence, takesCommitSequence { _ = try takeSequence() }
        let record = StoreRecord(
            nextSoupID: working.nextSoupID, lastSequence: working.lastSequence, purgedThrough: working.purgedThrough)
        batch.put(StoreKeys.storeRecord, record.encoded())
        return batch
    }
}
