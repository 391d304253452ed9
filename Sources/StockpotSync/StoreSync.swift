// The public sync API (docs/sync.md): a store and a PostgreSQL server, the Mobile Sync
// operations (syncDown, syncUp, reSync, cleanResyncGhosts, status), async with progress and
// cancellation; each runs on a thread of its own, one sync of a store at a time.

import Foundation
import Stockpot
import Synchronization

/// Syncs the soups of a store with a PostgreSQL server prepared by
/// ``initializeServer(_:soups:deviceRole:)`` (`stockpot sync init-server`).
///
/// Thread-safe. Syncs of one store run one at a time (a second one started meanwhile fails
/// with `sync_running`); cancelling the calling task stops a sync between batches with
/// `cancelled`, leaving what was committed, which a rerun builds on.
public final class StoreSync: Sendable {
    /// The store.
    public let store: Store
    private let server: String
    /// The server's connection string without its password.
    public let redactedServer: String

    private static let running = Mutex<Set<ObjectIdentifier>>([])

    /// A sync of `store` with the server `server` names: a libpq connection string or URI
    /// (TLS through `sslmode`, the password through the string, `PGPASSWORD` or `~/.pgpass`).
    public init(store: Store, server: String) {
        self.store = store
        self.server = server
        self.redactedServer = ConnectionString.redacted(server)
    }

    /// Applies the server's changes to `soup` since its last sync down.
    ///
    /// - Returns: What was applied, skipped (`leaveIfChanged`) and deleted.
    /// - Throws: ``SyncError``; the store keeps every batch committed before the error.
    public func syncDown(soup: String, options: SyncOptions = SyncOptions()) async throws(SyncError) -> SyncSummary {
        try await run(soup, options, .syncDown)
    }

    /// Sends `soup`'s local changes not yet on the server; conflicts go by `options.conflictPolicy`.
    ///
    /// - Returns: What was written; ``SyncSummary/conflicts`` lists every conflict met, and
    ///   ``SyncSummary/unresolved`` counts those left unsynced (policy `fail`).
    public func syncUp(soup: String, options: SyncOptions = SyncOptions()) async throws(SyncError) -> SyncSummary {
        try await run(soup, options, .syncUp)
    }

    /// Syncs `soup` down from scratch: every server row, as if never synced (Mobile Sync's reSync).
    public func reSync(soup: String, options: SyncOptions = SyncOptions()) async throws(SyncError) -> SyncSummary {
        try await run(soup, options, .reSync)
    }

    /// Deletes local entries of `soup` that the server no longer holds live (under
    /// `options.filter`) and that have no local changes.
    public func cleanResyncGhosts(soup: String, options: SyncOptions = SyncOptions()) async throws(SyncError) -> SyncSummary {
        try await run(soup, options, .cleanResyncGhosts)
    }

    /// The sync state of `soup` as the store knows it, without a server.
    ///
    /// - Throws: `soup_not_syncable` when the soup does not exist or has no `newid` key.
    public func status(soup: String) throws(SyncError) -> SyncStatus {
        try StoreSync.status(of: store, soup: soup)
    }

    /// The soups of `store` that can sync (those with a `newid` key spec), sorted.
    public static func syncableSoups(of store: Store) -> [String] {
        store.allSoupNames().filter { name in
            name != SyncStateStore.soupName && ((try? store.indexSpecs(of: name))?.contains { $0.defaultValue == .newID } ?? false)
        }
    }

    /// Creates the server tables of `soups` (and the shared ones) when missing; with
    /// `deviceRole`, grants that role what sync needs and nothing more. Safe to run again.
    public static func initializeServer(_ server: String, soups: [String], deviceRole: String? = nil) throws(SyncError) {
        let connection = try PGConnection(server)
        try ServerSchema.initialize(connection, soups: soups, deviceRole: deviceRole)
    }

    /// The operations, for callers that run them on their own thread (the CLI, exec).
    package enum Operation: String, Sendable {
        case syncDown, syncUp, reSync, cleanResyncGhosts
    }

    /// Runs `operation` on the calling thread, which it blocks; `cancellation` stops it
    /// between batches.
    package func perform(
        _ operation: Operation, soup: String, options: SyncOptions, cancellation: CancellationFlag = CancellationFlag()
    ) throws(SyncError) -> SyncSummary {
        let identity = ObjectIdentifier(store)
        let started = Self.running.withLock { $0.insert(identity).inserted }
        guard started else {
            throw SyncError(.syncRunning, "Another sync of this store is running.", soup: soup)
        }
        defer { _ = Self.running.withLock { $0.remove(identity) } }
        let run = try SyncRun(store: store, server: server, soup: soup, options: options, cancellation: cancellation)
        switch operation {
        case .syncDown: try run.syncDown(fromScratch: false)
        case .syncUp: try run.syncUp()
        case .reSync: try run.syncDown(fromScratch: true)
        case .cleanResyncGhosts: try run.cleanGhosts()
        }
        return run.summary
    }

    private func run(_ soup: String, _ options: SyncOptions, _ operation: Operation) async throws(SyncError) -> SyncSummary {
        let flag = CancellationFlag()
        let result: Result<SyncSummary, SyncError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // libpq blocks: the sync runs on a thread of its own, not on the task pool.
                let thread = Thread {
                    let outcome = Result { () throws(SyncError) -> SyncSummary in
                        try self.perform(operation, soup: soup, options: options, cancellation: flag)
                    }
                    continuation.resume(returning: outcome)
                }
                thread.stackSize = 4 << 20
                thread.start()
            }
        } onCancel: {
            flag.cancel()
        }
        return try result.get()
    }
}
