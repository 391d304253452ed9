// What a caller chooses for a sync: merge mode (down), conflict policy (up), filter, batch
// size, and what a sync reports: progress, conflicts and a summary (docs/sync.md).

import StockpotJSON

/// How sync down treats an entry with local changes not yet on the server (Mobile Sync's).
public enum MergeMode: String, Sendable, CaseIterable {
    /// The server's version replaces the local entry; its local changes are lost.
    case overwrite
    /// An entry with unsynced local changes is left alone (sync up resolves it).
    case leaveIfChanged
}

/// A conflict: a local change whose server row changed since the version it was based on.
public struct SyncConflict: Sendable {
    /// The soup.
    public var soup: String
    /// The entry's global key.
    public var key: String
    /// The local document (system fields removed), or nil for a local delete.
    public var local: JSONValue?
    /// The server's document, or nil when the server row is a tombstone.
    public var server: JSONValue?
    /// The server version the local change was based on (0: never on the server; -1: a row
    /// this device wrote that was since deleted and purged, docs/sync.md "Receipts").
    public var baseVersion: Int64
    /// The server row's version now.
    public var serverVersion: Int64
}

/// What a merge closure decides for a conflict.
public enum MergeResolution: Sendable {
    /// Write this document on both sides.
    case document(JSONValue)
    /// Delete the entry on both sides.
    case delete
    /// Keep the server's version; the local entry takes it.
    case server
}

/// How sync up resolves conflicts.
public enum ConflictPolicy: Sendable {
    /// The server's version stays and replaces the local entry.
    case serverWins
    /// The local change replaces the server's version.
    case clientWins
    /// Nothing is written for a conflicting entry, on either side; it is reported in the
    /// summary (``SyncSummary/unresolved``) and stays unsynced; the rest is synced. The CLI
    /// then exits with `conflict`.
    case fail
    /// The closure decides; it must be pure and may be called again for the same conflict
    /// after an interrupted sync. A document it returns must keep the entry's global key.
    case merge(@Sendable (SyncConflict) -> MergeResolution)

    /// The policy named `serverWins`, `clientWins` or `fail` (the CLI's and exec's names).
    public init?(name: String) {
        switch name {
        case "serverWins": self = .serverWins
        case "clientWins": self = .clientWins
        case "fail": self = .fail
        default: return nil
        }
    }

    /// The policy's name (`merge` for a closure).
    public var name: String {
        switch self {
        case .serverWins: "serverWins"
        case .clientWins: "clientWins"
        case .fail: "fail"
        case .merge: "merge"
        }
    }
}

/// The options of one sync.
public struct SyncOptions: Sendable {
    /// Sync down's treatment of entries with local changes.
    public var mergeMode: MergeMode = .overwrite
    /// Sync up's conflict policy.
    public var conflictPolicy: ConflictPolicy = .fail
    /// Sync down only server documents that contain this JSON object (jsonb `@>`); nil: all.
    /// Changing it makes the next sync down start from scratch.
    public var filter: JSONValue?
    /// Entries per server round trip, at least 1.
    public var batchSize = 1_000
    /// Called after each batch, on the syncing thread.
    public var progress: (@Sendable (SyncProgress) -> Void)?

    public init() {}
}

/// Where a sync is.
public struct SyncProgress: Sendable {
    /// Sync down or up.
    public enum Direction: String, Sendable {
        case down, up, ghosts
    }
    public var soup: String
    public var direction: Direction
    /// Entries handled so far.
    public var done: Int
    /// Entries to handle, as known at the start.
    public var total: Int
}

/// What one sync of one soup did.
public struct SyncSummary: Sendable {
    public var soup: String
    /// Server rows read (down) or local changes found (up).
    public var considered = 0
    /// Entries written locally (down) or on the server (up).
    public var applied = 0
    /// Entries deleted locally (down, tombstones and ghosts) or tombstoned on the server (up).
    public var deleted = 0
    /// Rows already applied (same version or same content): nothing done.
    public var unchanged = 0
    /// Entries left alone by `leaveIfChanged`.
    public var skipped = 0
    /// Conflicts met, resolved by the policy or (with `fail`) left unsynced.
    public var conflicts: [SyncConflict] = []
    /// Conflicts left unsynced (policy `fail`, or a row another device created meanwhile).
    public var unresolved = 0
    /// Server round trips made.
    public var roundTrips = 0

    public init(soup: String) { self.soup = soup }
}
