// What a store knows of a soup's sync without asking the server: positions, times, and the
// entries with changes not yet on the server.

/// The sync state of one soup (``StoreSync/status(soup:)``).
public struct SyncStatus: Sendable {
    /// The soup.
    public var soup: String
    /// The sync down watermark: every server row written by a transaction below this id has
    /// been applied (0: never synced down).
    public var watermark: UInt64
    /// The store sequence through which local changes have been sent.
    public var upSequence: UInt64
    /// When the last sync down and up finished, ms since the epoch (0: never).
    public var lastDownAt: Int64
    public var lastUpAt: Int64
    /// The keys of entries with local changes (upserts or deletes) not yet on the server.
    public var unsyncedKeys: [String]
    /// The keys among them awaiting a conflict's resolution.
    public var conflictKeys: [String]
    /// How many entries have sync state (were synced at least once).
    public var syncedEntries: Int
    /// This store's device id on the server (nil before its first sync up).
    public var deviceID: String?
}
