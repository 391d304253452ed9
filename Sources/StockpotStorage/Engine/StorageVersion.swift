// One immutable state of the store: the key directory, the open segments and dictionaries
// that its locations point into. Readers hold a version and never take a lock after that.

import Synchronization

/// The segments a version can read, by file number. Shared by versions until a roll or a
/// compaction changes the set.
final class SegmentSet: Sendable {
    let files: [UInt64: SegmentFile]
    /// ``files`` in ascending number order, for ``file(numbered:)``.
    private let lookup: SortedLookup<UInt64, SegmentFile>

    init(_ files: [UInt64: SegmentFile]) {
        self.files = files
        lookup = SortedLookup(files)
    }

    /// The open segment numbered `number`: what every read asks first, answered by a binary
    /// search of the few open segments (cheaper than hashing the number).
    func file(numbered number: UInt64) -> SegmentFile? {
        lookup.value(for: number)
    }

    func replacing(adding added: [SegmentFile], removing removed: Set<UInt64>) -> SegmentSet {
        var files = self.files
        for number in removed { files[number] = nil }
        for file in added { files[file.number] = file }
        return SegmentSet(files)
    }
}

/// The compression dictionaries by id, shared by versions until a new one is trained.
final class DictionarySet: Sendable {
    let contents: [UInt16: LZ4Dictionary]
    /// ``contents`` in ascending id order, for ``dictionary(_:)``.
    private let lookup: SortedLookup<UInt16, LZ4Dictionary>

    init(_ contents: [UInt16: LZ4Dictionary]) {
        self.contents = contents
        lookup = SortedLookup(contents)
    }

    /// The dictionary `id`, for a read (a binary search, as for segments).
    func dictionary(_ id: UInt16) -> LZ4Dictionary? {
        lookup.value(for: id)
    }
}

/// A small read-only map searched by bisection: for the read path's lookups of a few segments
/// or dictionaries by number, where hashing the key costs more than the search.
struct SortedLookup<Key: FixedWidthInteger & Sendable, Value: Sendable>: Sendable {
    private let keys: [Key]
    private let values: [Value]

    init(_ dictionary: [Key: Value]) {
        let sorted = dictionary.sorted { $0.key < $1.key }
        keys = sorted.map(\.key)
        values = sorted.map(\.value)
    }

    func value(for key: Key) -> Value? {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == key ? values[low] : nil
    }
}

/// Files to remove once no reader can need them any more: the blobs a later write superseded
/// while this version could still read them. Removed when the last holder lets go.
final class DeferredRemoval: Sendable {
    let fileSystem: any FileSystem
    let paths: [String]

    init(fileSystem: any FileSystem, paths: [String]) {
        self.fileSystem = fileSystem
        self.paths = paths
    }

    deinit {
        // Best effort: a file left behind is an orphan that the next open removes.
        for path in paths { try? fileSystem.removeFile(path) }
    }
}

/// An immutable, consistent state of the store.
final class StorageVersion: Sendable {
    let keys: KeyDirectory
    let segments: SegmentSet
    let dictionaries: DictionarySet
    /// Every record with a sequence at or below this is visible, and no other.
    let sequence: UInt64
    let directory: String
    let fileSystem: any FileSystem
    /// Decompressed values read before, shared by every version of the engine (nil: off).
    let valueCache: DecodedValueCache?
    /// The store's cipher, for blob files (nil: a plain store).
    let cipher: FileCipher?
    /// Removals that wait for this version (and every older one) to be released.
    private let removals = Mutex<[DeferredRemoval]>([])

    init(
        keys: KeyDirectory, segments: SegmentSet, dictionaries: DictionarySet, sequence: UInt64,
        directory: String, fileSystem: any FileSystem, valueCache: DecodedValueCache?, cipher: FileCipher?
    ) {
        self.cipher = cipher
        self.keys = keys
        self.segments = segments
        self.dictionaries = dictionaries
        self.sequence = sequence
        self.directory = directory
        self.fileSystem = fileSystem
        self.valueCache = valueCache
    }

    /// Keeps `removal` alive as long as this version is.
    func holdUntilReleased(_ removal: DeferredRemoval) {
        removals.withLock { $0.append(removal) }
    }
}
