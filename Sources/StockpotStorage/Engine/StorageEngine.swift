// The storage engine: an append-only log of checksummed records in segment files, an
// in-memory key directory, blob files, compaction and snapshots. It knows bytes and keys,
// not JSON or soups. The durability protocol it follows is docs/durability.md.

import Synchronization

/// An open store directory: one writer at a time, any number of readers.
///
/// Writes go through ``write(_:)`` (a ``WriteBatch``, atomic). Reads go through a
/// ``StorageView`` from ``view()``, a consistent state that never waits for a commit's fsync
/// or a compaction. Thread-safe: every method may be called from any thread.
public final class StorageEngine: Sendable {
    /// The store directory.
    public let directory: String
    /// The options it was opened with.
    public let options: StorageOptions
    /// What opening found and did (torn tail cut, orphans removed, snapshot problems).
    public let openReport: OpenReport
    /// The store's identity, written in its manifest and in every segment and hint header.
    package let identity: StoreIdentity
    /// Segments and hints numbered below it may be version-1 files without the identity.
    let legacyBelow: UInt64
    /// Seals and opens every file and record of an encrypted store; nil for a plain store.
    package let cipher: FileCipher?

    let fileSystem: any FileSystem
    let lock: any FileLock
    let writer: Mutex<WriterState>
    let current: PublishedVersion
    let commits: CommitCoordinator
    let recovery: Mutex<Recovery?>
    let background: BackgroundWork
    /// Enters sealed segments' cached pages into their mappings in the background.
    let warmer: MappingWarmer
    /// Held while a compaction runs: one at a time.
    let compactionGate = Mutex(())
    /// Decompressed values read before (nil when `decodedValueCacheBytes` is 0).
    let valueCache: DecodedValueCache?

    init(
        directory: String, options: StorageOptions, fileSystem: any FileSystem, lock: any FileLock,
        state: consuming WriterState, version: StorageVersion, recovery: Recovery, report: OpenReport,
        cipher: FileCipher?
    ) {
        self.cipher = cipher
        self.directory = directory
        self.options = options
        self.fileSystem = fileSystem
        self.lock = lock
        self.openReport = report
        // The opener always leaves a version-2 manifest, upgrading a version-1 one.
        self.identity = state.manifest.identity ?? StoreIdentity.random()
        self.legacyBelow = state.manifest.legacyBelow
        self.valueCache = version.valueCache
        let current = PublishedVersion(version)
        self.current = current
        self.commits = CommitCoordinator(
            position: LogPosition(segment: state.active.number, offset: state.activeEnd),
            handle: state.active.handle,
            publish: { version in current.publish(version) })
        self.writer = Mutex(state)
        self.recovery = Mutex(recovery)
        self.background = BackgroundWork()
        self.warmer = MappingWarmer(enabled: options.warmMappings)
    }

    /// A consistent view of the store as of the newest visible commit.
    public func view() -> StorageView {
        StorageView(version: current.version)
    }

    /// The value at `key` as of the newest visible commit, or `nil`.
    public func value(for key: [UInt8]) throws(StorageError) -> [UInt8]? {
        try view().value(for: key)
    }
}

/// The version readers get: replaced whole when a batch becomes visible.
final class PublishedVersion: Sendable {
    private let slot: Mutex<StorageVersion>

    init(_ version: StorageVersion) {
        slot = Mutex(version)
    }

    var version: StorageVersion { slot.withLock { $0 } }

    func publish(_ version: StorageVersion) {
        slot.withLock { $0 = version }
    }
}

/// What opening a store found and did.
public struct OpenReport: Sendable {
    /// Whether the directory held no store and one was created.
    public var created = false
    /// The torn tail cut off the active segment: its file, where it started, and its length.
    public var tornTail: (file: String, offset: Int, bytes: Int)?
    /// Files removed as leftovers of a crash (unreferenced blobs, unfinished files).
    public var removedFiles: [String] = []
    /// Why the snapshot could not be used, when it could not (a full replay follows).
    public var snapshotProblem: StorageError?
    /// Hint files that could not be used (their segments were scanned instead).
    public var hintProblems: [StorageError] = []
    /// Hint files written again after their segments were scanned.
    public var rewrittenHints: [String] = []
    /// Set when the snapshot covered more of the log than the log now holds (its end was
    /// damaged or cut after the snapshot was taken): the snapshot was dropped, the upper
    /// layer rebuilt from the log, and the entries past the log's end are lost.
    public var snapshotAheadOfLog: StorageError?
    /// Whether the store was written in format version 1 and this open upgraded its manifest.
    public var upgraded = false
    /// Live keys and records read.
    public var liveKeys = 0
    /// Bytes of segment data read to build the key directory.
    public var segmentBytesRead = 0
}

/// The snapshot found at open and the changes to replay after it, handed to the upper layer
/// once by ``StorageEngine/recover(_:)``.
struct Recovery: Sendable {
    var snapshot: SnapshotFile?
    /// Keys deleted after the snapshot's sequence (empty for a full replay), ascending.
    var deletedAfterSnapshot: [[UInt8]]
}
