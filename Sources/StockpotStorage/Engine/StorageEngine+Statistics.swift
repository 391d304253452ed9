// Space accounting for `stats` and `compact` reports: segment bytes live and dead, blob bytes.

/// The engine's files and space at one moment.
public struct StorageStatistics: Sendable, Hashable {
    /// Segment files, the active one included.
    public var segments = 0
    /// Bytes in all segment files.
    public var segmentBytes = 0
    /// Segment bytes that no live key needs (reclaimed by compaction).
    public var deadBytes = 0
    /// Bytes in blob files.
    public var blobBytes = 0
    /// Blob files.
    public var blobs = 0
    /// Live keys.
    public var liveKeys = 0
    /// Heap bytes of the in-memory key directory (keys and their record locations).
    public var keyDirectoryBytes = 0
    /// Log bytes appended since the current snapshot.
    public var logBytesSinceSnapshot = 0
    /// Syncs of the log that group commit ran since the engine opened (each covers every batch
    /// appended before it): durable commits divided by this is how many shared one sync.
    public var commitSyncs = 0
    /// Reads of put records the decoded value cache answered, and those it did not, since the
    /// engine opened (both 0 when the cache is off).
    public var decodedCacheHits = 0
    public var decodedCacheMisses = 0
    /// Bytes of values the decoded value cache holds now.
    public var decodedCacheBytes = 0

    /// Segment bytes that live keys need.
    public var liveBytes: Int { segmentBytes - deadBytes }

    /// All zeros.
    public init() {}
}

extension StorageEngine {
    /// The engine's files and space now.
    ///
    /// - Throws: `ioError` when the directory or a blob file cannot be read.
    public func statistics() throws(StorageError) -> StorageStatistics {
        var statistics = writer.withLock { state in
            var statistics = StorageStatistics()
            statistics.segments = state.segments.files.count
            for usage in state.usage.values {
                statistics.segmentBytes += usage.total
                statistics.deadBytes += usage.dead
            }
            statistics.liveKeys = state.keys.count
            statistics.keyDirectoryBytes = state.keys.approximateMemoryBytes
            statistics.logBytesSinceSnapshot = state.bytesSinceSnapshot
            statistics.commitSyncs = commits.syncCount
            if let cache = valueCache?.statistics {
                statistics.decodedCacheHits = cache.hits
                statistics.decodedCacheMisses = cache.misses
                statistics.decodedCacheBytes = cache.bytes
            }
            return statistics
        }
        for name in try fileSystem.listDirectory(directory) {
            guard let parsed = FileNames.parse(name), parsed.kind == .blob, !parsed.temporary else { continue }
            // A blob removed between the listing and the open is simply not counted.
            guard let handle = try? fileSystem.openFile(path(name), mode: .readOnly) else { continue }
            defer { handle.close() }
            statistics.blobBytes += try handle.size()
            statistics.blobs += 1
        }
        return statistics
    }
}
