// How a store is opened: durability, blob threshold, snapshot and compaction policy, limits,
// tombstone retention.

import StockpotStorage

/// Options for opening a store. Every field has the protocol's default.
public struct StoreOptions: Sendable, Hashable {
    /// When a write is made durable.
    public enum Durability: Sendable, Hashable {
        /// Durable before the call returns; commits that arrive together share one fsync.
        case full
        /// Made durable by a background fsync at most this many milliseconds later; a crash
        /// can lose the writes of that window (never half of a batch).
        case interval(milliseconds: Int)
        /// Durable only at close (bulk loads, benchmarks).
        case none
    }

    /// When writes are made durable; `.full` by default.
    public var durability: Durability = .full
    /// Open for reading only: nothing is written to the store's directory (no store is
    /// created, no snapshot saved, no leftover of a crash removed), so it works on read-only
    /// media; every write fails with `read_only`. The tools that only read open stores so.
    public var readOnly = false
    /// Documents larger than this many bytes go to blob files (default 1 MiB).
    public var blobThreshold = 1 << 20
    /// A snapshot of the indexes is taken after this many bytes of new log (default 64 MiB),
    /// and at clean close, so that opening replays at most this much.
    public var snapshotLogBytes = 64 << 20
    /// Compaction keeps dead bytes at most this share of the log (default one half).
    public var maxDeadShare = 0.5
    /// Whether compaction runs in the background when due (default true).
    public var backgroundCompaction = true
    /// Bytes of decompressed documents kept in memory for reads that come back to them (a
    /// document is kept from its second read within a short while, so one-off reads displace
    /// nothing). Default 2 MiB, the size of SQLite's default page cache; 0 turns it off.
    public var documentCacheBytes = 2 << 20
    /// Limits on names, paths and documents.
    public var limits = StoreLimits()
    /// How long the change feed keeps tombstones (docs/changes.md): those older are purged
    /// at each writable open and after each `compact()`. `nil` (the default) keeps them until
    /// `purgeTombstones(through:)`.
    public var tombstoneRetention: Duration?
    /// The key of an encrypted store (docs/encryption.md): `.key(32 bytes)` or
    /// `.passphrase(text)`. A new store is created encrypted with it; an existing one must be
    /// encrypted with it (`wrong_key`, `not_encrypted`); an encrypted store opened without it
    /// fails with `key_required`. nil (the default): a plain store.
    public var encryption: StoreEncryption?

    /// The defaults.
    public init() {}

    /// The engine options these options imply.
    var storageOptions: StorageOptions {
        var options = StorageOptions()
        switch durability {
        case .full: options.durability = .full
        case .interval(let milliseconds): options.durability = .interval(milliseconds: milliseconds)
        case .none: options.durability = .none
        }
        options.blobThreshold = blobThreshold
        options.maxDeadShare = maxDeadShare
        options.backgroundCompaction = backgroundCompaction
        options.decodedValueCacheBytes = documentCacheBytes
        options.readOnly = readOnly
        options.encryption = encryption
        return options
    }
}
