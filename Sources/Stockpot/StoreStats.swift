// What `stats` and `compact` report: soups, entries, bytes live and dead, blobs, segments,
// and the memory the indexes take, per soup and kind.

import StockpotIndex
import StockpotStorage

/// A store's size at one moment.
public struct StoreStats: Sendable, Hashable {
    /// Memory one soup's indexes take.
    public struct SoupMemory: Sendable, Hashable {
        /// The soup.
        public var soup: String
        /// Entries in the soup.
        public var entries: Int
        /// Bytes of the entry-id index.
        public var entryIDIndexBytes: Int
        /// Bytes of the change index (docs/changes.md).
        public var changeIndexBytes: Int
        /// Bytes of the ordered indexes, by path.
        public var orderedIndexBytes: [String: Int]
        /// Bytes of the full-text index (0 when the soup has no full_text path).
        public var fullTextIndexBytes: Int
    }

    /// Soups in the store.
    public var soups = 0
    /// Entries in all soups.
    public var entries = 0
    /// Bytes of all segment files.
    public var dataBytes = 0
    /// Segment bytes that live records need.
    public var liveBytes = 0
    /// Bytes of blob files.
    public var blobBytes = 0
    /// Segment files.
    public var segments = 0
    /// Log bytes written since the last index snapshot.
    public var logBytesSinceSnapshot = 0
    /// Heap bytes of the engine's key directory (every entry's key and record location).
    public var keyDirectoryBytes = 0
    /// Document reads the document cache answered, and those it did not, since the store
    /// opened; and the bytes it holds now (see ``StoreOptions/documentCacheBytes``).
    public var documentCacheHits = 0
    public var documentCacheMisses = 0
    public var documentCacheBytes = 0
    /// Index memory per soup, sorted by soup name.
    public var indexMemory: [SoupMemory] = []
    /// What the open that this handle came from found wrong and repaired, one sentence each
    /// (``Store/openWarnings``).
    public var openWarnings: [String] = []

    /// The stats as the protocol's JSON object.
    public var jsonValue: JSONValue {
        var members: [(String, JSONValue)] = [
            ("soups", .integer(Int64(soups))), ("entries", .integer(Int64(entries))),
            ("dataBytes", .integer(Int64(dataBytes))), ("liveBytes", .integer(Int64(liveBytes))),
            ("blobBytes", .integer(Int64(blobBytes))), ("segments", .integer(Int64(segments))),
            ("logBytesSinceSnapshot", .integer(Int64(logBytesSinceSnapshot))),
        ]
        if !openWarnings.isEmpty { members.append(("openWarnings", .array(openWarnings.map { .string($0) }))) }
        return .object(JSONObject(members))
    }
}

extension Store {
    /// The store's size now.
    ///
    /// - Throws: `io_error` when the directory cannot be read.
    public func stats() throws(StockpotError) -> StoreStats {
        committed.drain()  // memory figures without garbage waiting to be freed
        let storage: StorageStatistics
        do {
            storage = try engine.statistics()
        } catch {
            throw StockpotError(error)
        }
        let state = view().state
        var stats = StoreStats()
        stats.openWarnings = openWarnings
        stats.soups = state.soups.count
        stats.dataBytes = storage.segmentBytes
        stats.liveBytes = storage.liveBytes
        stats.blobBytes = storage.blobBytes
        stats.segments = storage.segments
        stats.logBytesSinceSnapshot = storage.logBytesSinceSnapshot
        stats.keyDirectoryBytes = storage.keyDirectoryBytes
        stats.documentCacheHits = storage.decodedCacheHits
        stats.documentCacheMisses = storage.decodedCacheMisses
        stats.documentCacheBytes = storage.decodedCacheBytes
        for name in state.soupNames {
            guard let soup = state.soup(named: name) else { continue }
            stats.entries += soup.count
            var ordered: [String: Int] = [:]
            for (position, spec) in soup.record.specs.enumerated() {
                ordered[spec.path] = soup.indexes[position].approximateMemoryBytes
            }
            stats.indexMemory.append(
                StoreStats.SoupMemory(
                    soup: name, entries: soup.count, entryIDIndexBytes: soup.entryIDs.approximateMemoryBytes,
                    changeIndexBytes: soup.changes.approximateMemoryBytes,
                    orderedIndexBytes: ordered, fullTextIndexBytes: soup.fullTextIndex?.approximateMemoryBytes ?? 0))
        }
        return stats
    }

    /// Purges the tombstones past ``StoreOptions/tombstoneRetention``, compacts the log now
    /// (every segment with dead bytes) and reports the size after.
    ///
    /// - Throws: `io_error`; `store_closed`.
    public func compact() throws(StockpotError) -> StoreStats {
        try applyTombstoneRetention()  // before, so that the purged tombstones are compacted away
        do {
            try engine.compact()
        } catch {
            throw StockpotError(error)
        }
        refreshView()
        return try stats()
    }
}
