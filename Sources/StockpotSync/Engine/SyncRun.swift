// One sync of one soup: the connection, the soup's server table and key path, the store
// transactions it applies batches in, cancellation and progress (docs/sync.md, "Algorithm").
// Sync down, up and the ghost clean are in SyncRun+Down.swift, +Up.swift and +Ghosts.swift.

import Glibc
import Stockpot
import StockpotJSON
import Synchronization

/// A flag a caller sets to stop a sync between batches.
package final class CancellationFlag: Sendable {
    private let state = Mutex(false)
    package init() {}
    package func cancel() { state.withLock { $0 = true } }
    package var isCancelled: Bool { state.withLock { $0 } }
}

/// The work of one sync of one soup. Used by one thread.
final class SyncRun {
    let store: Store
    let soup: String
    /// The soup's global key path: its `newid` spec.
    let keyPath: String
    let options: SyncOptions
    let connection: PGConnection
    let table: ServerSchema.SoupTable
    let cancellation: CancellationFlag
    var summary: SyncSummary

    /// Checks the soup, prepares the sync soup, connects and checks the server table, in that
    /// order, so that a soup that cannot sync fails before any connection.
    ///
    /// - Throws: `soup_not_syncable`, the connection's errors, `server_not_initialized`,
    ///   `schema_mismatch`, `permission_denied`.
    init(store: Store, server: String, soup: String, options: SyncOptions, cancellation: CancellationFlag) throws(SyncError) {
        guard options.batchSize >= 1 else {
            throw SyncError(.invalidArgument, "The batch size is \(options.batchSize); it must be at least 1.", soup: soup)
        }
        if let filter = options.filter, filter.objectValue == nil {
            throw SyncError(.invalidArgument, "A sync filter must be a JSON object (the server keeps documents that contain it).", soup: soup)
        }
        guard soup != SyncStateStore.soupName else {
            throw SyncError(.soupNotSyncable, "The sync soup itself is not synced.", soup: soup)
        }
        let specs: [IndexSpec]
        do {
            specs = try store.indexSpecs(of: soup)
        } catch {
            throw SyncError(.soupNotSyncable, "The store has no soup \"\(soup)\".", soup: soup)
        }
        guard let keySpec = specs.first(where: { $0.defaultValue == .newID }) else {
            throw SyncError(
                .soupNotSyncable,
                "Soup \"\(soup)\" has no global key: sync needs an index spec with \"default\": \"newid\" (docs/changes.md).", soup: soup)
        }
        self.store = store
        self.soup = soup
        self.keyPath = keySpec.path
        self.options = options
        self.cancellation = cancellation
        self.summary = SyncSummary(soup: soup)
        connection = try PGConnection(server)
        table = try ServerSchema.table(connection, soup: soup)
        summary.roundTrips += 4  // the connection's start-up, the registry, the shapes of the soup's two tables
        try write { transaction throws(StockpotError) in try SyncStateStore.ensureSoup(transaction) }
    }

    /// Runs one statement on the server, counting the round trip.
    @discardableResult
    func execute(_ sql: String, _ parameters: [[UInt8]?] = []) throws(SyncError) -> PGResult {
        summary.roundTrips += 1
        return try connection.execute(sql, parameters, soup: soup)
    }

    /// Rolls back the server transaction after a failure, when the connection still stands.
    func rollBack() {
        guard connection.isConnected else { return }
        _ = try? connection.execute("ROLLBACK", soup: soup)
    }

    /// Throws `cancelled` when the caller asked to stop.
    func checkCancelled() throws(SyncError) {
        if cancellation.isCancelled {
            throw SyncError(.cancelled, "The sync of soup \"\(soup)\" was cancelled; what was committed stays and a rerun resumes.", soup: soup)
        }
    }

    /// Tells the caller where the sync is.
    func report(_ direction: SyncProgress.Direction, done: Int, total: Int) {
        options.progress?(SyncProgress(soup: soup, direction: direction, done: done, total: total))
    }

    /// Runs `body` in one store write transaction (the batch and its sync state commit together).
    func write<R>(_ body: (WriteTransaction) throws(StockpotError) -> R) throws(SyncError) -> R {
        do {
            return try store.write { transaction in try body(transaction) }
        } catch let error as StockpotError {
            throw SyncError(store: error, soup: soup)
        } catch {
            throw SyncError(.storeError, "The local store failed: \(error)", soup: soup)
        }
    }

    /// Runs `body` over a view of the store.
    func read<R>(_ body: (StoreView) throws(StockpotError) -> R) throws(SyncError) -> R {
        do {
            return try body(store.view())
        } catch {
            throw SyncError(store: error, soup: soup)
        }
    }

    /// The local entry with global key `key`, system fields included.
    func localEntry(_ reader: some EntryQuerying, key: String) throws(StockpotError) -> JSONValue? {
        try LocalChangeReader(soup: soup, keyPath: keyPath).localEntry(reader, key: key)
    }

    /// Whether the local entry (nil: none) has changes its state does not account for.
    static func isDirty(local: JSONValue?, state: EntryState?) -> Bool {
        isDirty(contentHash: local.map { DocumentContent.hash(DocumentContent.stripped($0)) }, state: state)
    }

    /// ``isDirty(local:state:)`` from the local entry's content hash (nil: no local entry).
    static func isDirty(contentHash: Int64?, state: EntryState?) -> Bool {
        if state?.pending == true { return true }
        guard let contentHash else { return state.map { !$0.deleted } ?? false }
        guard let state, !state.deleted else { return true }
        return contentHash != state.contentHash
    }

    /// Milliseconds since the epoch.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000 + Int64(time.tv_nsec) / 1_000_000
    }
}
