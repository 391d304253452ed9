// What a store can be tuned with: durability, file sizes, compaction, snapshots, compression.

/// When a committed batch reaches the disk.
public enum Durability: Sendable, Hashable {
    /// `write` returns after the batch is fsynced; batches committed together share one fsync.
    /// Survives power loss. The default.
    case full
    /// `write` returns at once; a background fsync runs every `milliseconds`. Survives a killed
    /// process; power loss may take the last interval's batches (never part of one).
    case interval(milliseconds: Int)
    /// No fsync until close, segment roll, snapshot or compaction. For bulk loads and
    /// benchmarks.
    case none
}

/// Options of a storage engine; every value has a default.
public struct StorageOptions: Sendable, Hashable {
    /// When a committed batch reaches the disk.
    public var durability: Durability = .full
    /// Values longer than this many bytes go to blob files.
    public var blobThreshold: Int = 1 << 20
    /// The active segment is sealed once it grows past this many bytes.
    public var segmentRollBytes: Int = 64 << 20
    /// A sealed segment becomes a compaction candidate when at least this share of it is dead.
    public var compactionDeadShare: Double = 0.5
    /// Compaction runs in the background until dead bytes are at most this share of all
    /// segment bytes.
    public var maxDeadShare: Double = 0.5
    /// Whether compaction runs by itself in the background (it also runs on request).
    public var backgroundCompaction: Bool = true
    /// Whether sealed segments' mappings are warmed in the background, after an open and
    /// after each seal: the pages already in the page cache are entered into the mapping (no
    /// disk read), so that a store just opened serves its first reads without page faults.
    /// Those pages then count in the process's resident memory (shared with the page cache,
    /// not extra memory). Linux only; elsewhere it does nothing.
    public var warmMappings: Bool = true
    /// A key space gets a compression dictionary after this many bytes of its values.
    public var dictionaryTrainingBytes: Int = 256 << 10
    /// Size of a compression dictionary (at most 64 KiB, LZ4's window).
    public var dictionaryBytes: Int = 64 << 10
    /// Values shorter than this are stored uncompressed.
    public var minimumCompressedBytes: Int = 64
    /// Bytes of decompressed values kept in memory for reads that come back to them (a value
    /// is kept from its second read; see `DecodedValueCache`). 0 turns the cache off.
    /// Default 2 MiB, the size of SQLite's default page cache.
    public var decodedValueCacheBytes: Int = 2 << 20

    /// At close, an active segment at least this long is sealed (a segment roll, which writes
    /// its hint file), so that the next open does not scan it. Default 1 MiB.
    public var sealActiveSegmentOnCloseBytes: Int = 1 << 20
    /// The active segment's file is extended this many bytes at a time ahead of its appends,
    /// so that most commits write inside the file and their sync changes no metadata
    /// (docs/durability.md, "Commit a batch"). 0 turns preallocation off. Default 1 MiB.
    public var preallocationBytes: Int = 1 << 20

    /// Open without writing a byte: no directory or store is created, no crash leftover is
    /// removed or truncated (a torn tail is left on disk and ignored), no version-1 store is
    /// upgraded, no hint is rewritten; writes, snapshots and compaction fail with `read_only`.
    /// A read-only open takes no lock: it works on read-only media and beside a writer (in
    /// this or another process), and sees the store as of the open (docs/durability.md,
    /// "Read-only opens").
    public var readOnly = false

    /// The key of an encrypted store (docs/encryption.md): a new store is created encrypted
    /// with it; an existing one must be encrypted with it (`wrongKey`, `notEncrypted`), and an
    /// encrypted store opened without it fails with `keyRequired`. nil: a plain store.
    public var encryption: StoreEncryption?

    /// The defaults.
    public init() {}
}
