// One immutable state of the store: the key directory, the open segments and dictionaries
// that its locations point into. Readers hold a version and never take a lock after that.

import Synchronization

/// The segments a version can read, by file number. Shared by versions until a roll or a
/// compaction changes the set.
final class SegmentSet: Sendable {
    let files: [UInt64: SegmentFile]

    init(_ files: [UInt64: SegmentFile]) {
        self.files = files
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

    init(_ contents: [UInt16: LZ4Dictionary]) {
        self.contents = contents
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
    /// Removals that wait for this version (and every older one) to be released.
    private let removals = Mutex<[DeferredRemoval]>([])

    init(
        keys: KeyDirectory, segments: SegmentSet, dictionaries: DictionarySet, sequence: UInt64,
        directory: String, fileSystem: any FileSystem
    ) {
        self.keys = keys
        self.segments = segments
        self.dictionaries = dictionaries
        self.sequence = sequence
        self.directory = directory
        self.fileSystem = fileSystem
    }

    /// Keeps `removal` alive as long as this version is.
    func holdUntilReleased(_ removal: DeferredRemoval) {
        removals.withLock { $0.append(removal) }
    }
}
