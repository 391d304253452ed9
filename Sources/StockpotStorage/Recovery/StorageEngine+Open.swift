// Opening a store: create it, or recover it from its manifest, segments, hints and snapshot,
// following docs/durability.md ("Open and recovery").

import StockpotCore
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension StorageEngine {
    /// Opens (or creates) the store in `directory` on the real file system.
    ///
    /// - Throws: `storeLocked` when another process has it open, `corruption` naming the file
    ///   and offset when stored bytes do not verify, `ioError` when the file system fails.
    public static func open(directory: String, options: StorageOptions = StorageOptions()) throws(StorageError) -> StorageEngine {
        try open(directory: directory, options: options, fileSystem: RealFileSystem())
    }

    /// Opens (or creates) the store in `directory` on the real file system, handing the
    /// snapshot's upper state to `restore` on another thread while the rest of the open (hint
    /// files, the key directory) runs, so the upper layer's decoding overlaps the engine's.
    ///
    /// `restore` is called only when the store has a snapshot that verifies, and has returned
    /// when `open` returns or throws. It is called at most once, except by a read-only open
    /// that starts again (a writer changed the store under it): the last call then has the
    /// state ``recover(_:)`` delivers, which the caller tells by its bytes.
    package static func open(
        directory: String, options: StorageOptions,
        restoringSnapshot restore: @escaping @Sendable (_ state: [UInt8]) -> Void
    ) throws(StorageError) -> StorageEngine {
        try open(directory: directory, options: options, fileSystem: RealFileSystem(), restoringSnapshot: restore)
    }

    /// Opens (or creates) the store in `directory` on `fileSystem`; `restore` as in
    /// ``open(directory:options:restoringSnapshot:)``.
    package static func open(
        directory: String, options: StorageOptions, fileSystem: any FileSystem,
        restoringSnapshot restore: (@Sendable (_ state: [UInt8]) -> Void)? = nil
    ) throws(StorageError) -> StorageEngine {
        if !options.readOnly { try fileSystem.createDirectory(directory) }
        // A read-only open takes no lock: it reads the state as of the open while a writer
        // goes on (docs/durability.md, "Read-only opens").
        let lock = options.readOnly ? NoLock() : try fileSystem.lockDirectory(directory)
        do throws(StorageError) {
            var opener = StoreOpener(directory: directory, options: options, fileSystem: fileSystem)
            opener.restore = restore
            let (state, recovery) =
                try options.readOnly
                ? runBesideAWriter(&opener, directory: directory, fileSystem: fileSystem) : opener.run()
            let version = StorageVersion(
                keys: state.keys, segments: state.segments, dictionaries: state.dictionaries,
                sequence: state.nextSequence - 1, directory: directory, fileSystem: fileSystem,
                valueCache: DecodedValueCache(capacityBytes: options.decodedValueCacheBytes), cipher: opener.cipher)
            let engine = StorageEngine(
                directory: directory, options: options, fileSystem: fileSystem, lock: lock,
                state: state, version: version, recovery: recovery, report: opener.report, cipher: opener.cipher)
            engine.startBackgroundWork()
            // Newest first: recent entries are the likelier reads.
            engine.warmer.warm(version.segments.files.values.sorted { $0.number > $1.number })
            return engine
        } catch {
            lock.release()
            throw error
        }
    }
}

extension StorageEngine {
    /// How many times a read-only open starts again when the store changed under it.
    static let readOnlyAttempts = 8

    /// Runs a read-only open, which a writer in another process may overtake: a compaction
    /// removes files the manifest it read named, a commit is half written at the end of the
    /// active segment. A failure (`corruption`, `notFound`) is retried with a fresh opener
    /// after a short pause, a few times, before it is believed; a store that is damaged fails
    /// the same way every time.
    private static func runBesideAWriter(
        _ opener: inout StoreOpener, directory: String, fileSystem: any FileSystem
    ) throws(StorageError) -> (WriterState, Recovery) {
        var attempt = 1
        while true {
            var fresh = opener
            do throws(StorageError) {
                let result = try fresh.run()
                opener = fresh
                return result
            } catch  where attempt < readOnlyAttempts && (error.code == .corruption || error.code == .notFound) {
                attempt += 1
                usleep(UInt32(2_000 * attempt))
            }
        }
    }
}

/// The lock a read-only open holds: none.
private final class NoLock: FileLock {
    func release() {}
}

/// A snapshot file that verifies and is the one the manifest pins, with its trailer checksum.
private struct ReadSnapshot: Sendable {
    var file: SnapshotFile
    var checksum: UInt64
}

/// The snapshot file an open read on another thread, once it has.
private final class SnapshotRead: Sendable {
    let result = Mutex<Result<ReadSnapshot?, StorageError>?>(nil)
}

/// The steps of one open, with what they found.
struct StoreOpener {
    let directory: String
    let options: StorageOptions
    let fileSystem: any FileSystem
    var report = OpenReport()
    /// Given the snapshot's upper state on another thread while the open goes on.
    var restore: (@Sendable ([UInt8]) -> Void)?
    var keys = KeyDirectory()
    /// Keys whose newest record is a delete, with that record's sequence.
    var deletes: [[UInt8]: UInt64] = [:]
    var usage: [UInt64: SegmentUsage] = [:]
    var highestSequence: UInt64 = 0
    /// The store's identity (chosen now for a version-1 store) and the bound below which
    /// segments and hints may be version-1 files.
    var identity: StoreIdentity?
    var legacyBelow: UInt64 = 1
    /// The store's cipher when it is encrypted (found, or made by a create).
    var cipher: FileCipher?
    /// Puts whose keys ascend strictly, in the order read, held for one bulk build of the key
    /// directory (a store written in key order is read as one such run).
    var ascendingRun = AscendingKeys()
    /// The records read that do not extend the run; applied one by one after the bulk build.
    var deferred: [(key: [UInt8], tag: RecordTag, location: KeyLocation)] = []

    init(directory: String, options: StorageOptions, fileSystem: any FileSystem) {
        self.directory = directory
        self.options = options
        self.fileSystem = fileSystem
    }

    func path(_ name: String) -> String { directory + "/" + name }

    mutating func run() throws(StorageError) -> (WriterState, Recovery) {
        let names = try fileSystem.listDirectory(directory)
        guard names.contains(FileNames.manifest) else {
            if options.readOnly {
                throw StorageError(.notFound, "There is no store at \(directory) (no MANIFEST) to open read-only.", file: path(FileNames.manifest))
            }
            return try create(in: names)
        }
        cipher = try FileCipher.load(directory: directory, names: names, fileSystem: fileSystem, encryption: options.encryption)
        let manifestBytes = try readWhole(FileNames.manifest, kind: .manifest, number: 0)
        var manifest = try manifestBytes.withBytes { (bytes) throws(StorageError) in
            try Manifest.decode(bytes, file: path(FileNames.manifest))
        }
        if let cipher, manifest.identity != cipher.identity {
            throw .corruption(
                "The manifest names another store than the ENCRYPTION file does.", file: path(FileNames.manifest), offset: 16)
        }
        // The counters this store goes on from must have room to grow: no store gets past these
        // bounds (file names have 12 digits), and counting on from there would overflow.
        guard manifest.generation < 1 << 62, manifest.nextFileNumber <= FileNames.numbers.upperBound / 2 else {
            throw StorageError.corruption(
                "The manifest's generation \(manifest.generation) or next file number \(manifest.nextFileNumber) is out of "
                    + "range (at most 2^62 - 1 and \(FileNames.numbers.upperBound / 2)); see `stockpot salvage`.",
                file: path(FileNames.manifest))
        }
        // A version-1 manifest gets its identity now, for the files this open writes (hints),
        // and is upgraded once everything it names has loaded.
        let upgrading = manifest.identity == nil
        manifest.identity = manifest.identity ?? StoreIdentity.random()
        identity = manifest.identity
        legacyBelow = manifest.legacyBelow
        for name in names where name.hasSuffix(".tmp") && !options.readOnly { try remove(name) }

        // With an upper layer waiting for the snapshot, the snapshot is read, checked and
        // handed to it on another thread while this one reads the hints and builds the key
        // directory; the deferred wait joins that thread on every way out, errors included.
        let background = DispatchGroup()
        defer { background.wait() }
        let snapshotRead = SnapshotRead()
        if let restore {
            DispatchQueue.global().async(group: background) { [directory, fileSystem, manifest, cipher] in
                let result = Self.readSnapshot(manifest, directory: directory, fileSystem: fileSystem, cipher: cipher)
                snapshotRead.result.withLock { $0 = result }
                if case .success(let snapshot?) = result { restore(snapshot.file.upperState) }
            }
        } else {
            snapshotRead.result.withLock {
                $0 = Self.readSnapshot(manifest, directory: directory, fileSystem: fileSystem, cipher: cipher)
            }
        }
        var compression = CompressionState()
        var dictionaries: [UInt16: LZ4Dictionary] = [:]
        for (index, entry) in manifest.dictionaries.enumerated() {
            let name = FileNames.name(.dictionary, entry.fileNumber)
            let bytes = try readWhole(name, kind: .dictionary, number: entry.fileNumber)
            let decoded = try bytes.withBytes { (raw) throws(StorageError) in
                try DictionaryFormat.decode(raw, file: path(name))
            }
            guard decoded.id == entry.id, decoded.keySpace == entry.keySpace else {
                throw .corruption("The dictionary file disagrees with the manifest.", file: path(name), offset: 12)
            }
            // The manifest pins the content: a dictionary copied from another store (or made
            // again with other samples) would decode records into other bytes.
            let checksum = Checksum.xxh3(decoded.content)
            if upgrading {
                manifest.dictionaries[index].contentChecksum = checksum
            } else if checksum != entry.contentChecksum {
                throw .corruption(
                    "The dictionary's content is not the one the manifest names (a file from another store?).",
                    file: path(name), offset: 24)
            }
            let dictionary = LZ4Dictionary(decoded.content)
            dictionaries[entry.id] = dictionary
            compression.install(id: entry.id, dictionary: dictionary, space: entry.keySpace)
        }

        var files: [UInt64: SegmentFile] = [:]
        for sealed in manifest.sealedSegments {
            files[sealed.number] = try loadSealed(sealed)
        }
        let (active, activeEnd, activeHints, activeMinSequence, activeMaxSequence) = try loadActive(
            manifest.activeSegment, dictionaries: Set(dictionaries.keys))
        files[active.number] = active
        buildKeyDirectory()

        if !options.readOnly { try removeOrphans(names: names, manifest: manifest, files: files) }
        background.wait()
        var read: ReadSnapshot?
        switch snapshotRead.result.withLock({ $0 }) {
        case .success(let found)?: read = found
        case .failure(let error)?: report.snapshotProblem = error
        case nil: break  // not reached: the read has finished
        }
        if read != nil, let binding = manifest.snapshotBinding, binding.logSegment == active.number,
            UInt64(activeEnd) < binding.logOffset
        {
            // The log lost records the snapshot reflects (damage at its end after the snapshot
            // was taken): the snapshot would index entries the log no longer holds.
            report.snapshotAheadOfLog = StorageError.corruption(
                "The log ends at offset \(activeEnd), before offset \(binding.logOffset) that the snapshot covers; "
                    + "the snapshot was dropped and the indexes rebuilt from the log. Entries written after offset \(activeEnd) are lost.",
                file: active.path, offset: activeEnd)
            read = nil
        }
        let snapshot = read?.file
        let highestFileNumber = names.compactMap { FileNames.parse($0)?.number }.max() ?? 0
        if upgrading && !options.readOnly {
            manifest.legacyBelow = max(manifest.nextFileNumber, highestFileNumber + 1)
            manifest.nextFileNumber = manifest.legacyBelow
            manifest.snapshotBinding =
                manifest.snapshot == 0
                ? nil
                : SnapshotBinding(
                    coveredSequence: read?.file.coveredSequence ?? 0, checksum: read?.checksum ?? 0,
                    logSegment: 0, logOffset: 0)
            manifest.formatVersion = FormatHeader.identityVersion
            manifest.generation += 1
            try ManifestWriter(directory: directory, fileSystem: fileSystem, cipher: cipher).write(manifest)
            report.upgraded = true
        }
        let covered = snapshot?.coveredSequence ?? 0
        let deletedAfterSnapshot = snapshot == nil ? [] : deletes.filter { $0.value > covered }.keys.sorted { $0.lexicographicallyPrecedes($1) }
        report.liveKeys = keys.count
        var state = WriterState(
            manifest: manifest,
            nextFileNumber: max(manifest.nextFileNumber, highestFileNumber + 1),
            nextSequence: max(highestSequence, covered) + 1,
            keys: keys, segments: SegmentSet(files), dictionaries: DictionarySet(dictionaries),
            active: active, activeEnd: activeEnd,
            activeMinSequence: activeMinSequence, activeMaxSequence: activeMaxSequence,
            activeHints: activeHints, usage: usage, compression: compression)
        state.snapshotCoveredSequence = covered
        return (state, Recovery(snapshot: snapshot, deletedAfterSnapshot: deletedAfterSnapshot))
    }

    // MARK: - Files

    func parentDirectory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    func readWhole(_ name: String) throws(StorageError) -> [UInt8] {
        let handle: any FileHandle
        do throws(StorageError) {
            handle = try fileSystem.openFile(path(name), mode: .readOnly)
        } catch  where error.code == .notFound {
            throw .corruption("A file the store needs is missing.", file: path(name))
        }
        defer { handle.close() }
        return try handle.read(count: try handle.size(), at: 0)
    }

    /// A whole file of `kind` numbered `number`, opened from its envelope in an encrypted store.
    func readWhole(_ name: String, kind: FileCipher.FileKind, number: UInt64) throws(StorageError) -> [UInt8] {
        try cipher.opened(try readWhole(name), kind: kind, number: number, file: path(name))
    }

    /// Whether segment file `name` holds no record: it is shorter than a header, or nothing
    /// but zeros follows its header (a header written, nothing appended).
    func holdsNoRecord(_ name: String) throws(StorageError) -> Bool {
        let bytes = try readWhole(name)
        let headerSize = bytes.withUnsafeBytes { SegmentFormat.announcedHeaderSize($0) } ?? SegmentFormat.headerSize
        return bytes.count <= headerSize || bytes[headerSize...].allSatisfy { $0 == 0 }
    }

    mutating func remove(_ name: String) throws(StorageError) {
        try fileSystem.removeFile(path(name))
        report.removedFiles.append(name)
    }

    /// The snapshot the manifest names (`nil` when it names none) with its trailer checksum,
    /// or why it is unusable: it does not verify, or it is not the file the manifest pins
    /// (another store's, or an older one). Static, so that it can run on another thread while
    /// the open goes on.
    private static func readSnapshot(
        _ manifest: Manifest, directory: String, fileSystem: any FileSystem, cipher: FileCipher?
    ) -> Result<ReadSnapshot?, StorageError> {
        guard manifest.snapshot != 0 else { return .success(nil) }
        let name = FileNames.name(.snapshot, manifest.snapshot)
        var reader = StoreOpener(directory: directory, options: StorageOptions(), fileSystem: fileSystem)
        reader.cipher = cipher
        do throws(StorageError) {
            let bytes = try reader.readWhole(name, kind: .snapshot, number: manifest.snapshot)
            let file = try bytes.withBytes { (raw) throws(StorageError) in
                try SnapshotFile.decode(raw, file: reader.path(name))
            }
            let checksum = SnapshotFile.trailerChecksum(of: bytes)
            if let binding = manifest.snapshotBinding,
                binding.checksum != checksum || binding.coveredSequence != file.coveredSequence
            {
                throw .corruption(
                    "The snapshot is not the one the manifest names (a file from another store, or an older one).",
                    file: reader.path(name), offset: bytes.count - 8)
            }
            return .success(ReadSnapshot(file: file, checksum: checksum))
        } catch {
            return .failure(error)
        }
    }

    /// Notes one record read from a segment or hint file. Puts that extend the ascending run
    /// wait for the bulk build; the others are applied after it. Since the newest record of a
    /// key wins by sequence, not by the order records are applied, the result is the same as
    /// applying every record in the order read.
    mutating func collect(_ key: UnsafeRawBufferPointer, tag: RecordTag, segment: UInt64, offset: Int, length: Int, sequence: UInt64) {
        highestSequence = max(highestSequence, sequence)
        let location = KeyLocation(
            segment: UInt32(truncatingIfNeeded: segment), offset: UInt32(truncatingIfNeeded: offset),
            length: UInt32(truncatingIfNeeded: length), sequence: sequence, kind: tag.rawValue)
        if tag != .delete, ascendingRun.appendIfAscending(key, location) {
            return
        }
        deferred.append((Array(key), tag, location))
    }

    /// Builds the key directory from the ascending run in one pass, then applies the other records.
    mutating func buildKeyDirectory() {
        keys = KeyDirectory(ascending: ascendingRun)
        ascendingRun = AscendingKeys()
        let others = deferred
        deferred = []
        for record in others {
            apply(record.key, tag: record.tag, location: record.location)
        }
    }

    /// Applies one record: the newest record of each key (by sequence) wins, whatever order the
    /// segments are read in.
    mutating func apply(_ key: [UInt8], tag: RecordTag, location: KeyLocation) {
        let sequence = location.sequence
        let segment = UInt64(location.segment)
        let length = Int(location.length)
        if deletes.isEmpty, tag != .delete {
            // No delete seen yet (the usual open): one tree update per record, no hashing.
            guard let existing = keys.setLocation(location, for: key) else { return }
            if existing.sequence >= sequence {
                keys.setLocation(existing, for: key)  // a newer record was read first: keep it
                markDead(segment, length)
            } else {
                markDead(UInt64(existing.segment), Int(existing.length))
            }
            return
        }
        let existing = keys.location(for: key)
        let newestOther = max(existing?.sequence ?? 0, deletes[key] ?? 0)
        guard sequence > newestOther else {
            markDead(segment, length)
            return
        }
        if let existing { markDead(UInt64(existing.segment), Int(existing.length)) }
        if tag == .delete {
            keys.removeLocation(for: key)
            deletes[key] = sequence
            markDead(segment, length)  // a delete record is never needed to read a value
        } else {
            if !deletes.isEmpty { deletes[key] = nil }
            keys.setLocation(location, for: key)
        }
    }

    mutating func markDead(_ segment: UInt64, _ length: Int) {
        usage[segment, default: SegmentUsage(total: 0, dead: 0)].dead += length
    }
}
