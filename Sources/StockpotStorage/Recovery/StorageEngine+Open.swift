// Opening a store: create it, or recover it from its manifest, segments, hints and snapshot,
// following docs/durability.md ("Open and recovery").

import StockpotCore
import Dispatch
import Synchronization

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
    /// `restore` is called at most once, only when the store has a snapshot that verifies (the
    /// same state ``recover(_:)`` later delivers), and has returned when `open` returns or
    /// throws.
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
        let lock = try fileSystem.lockDirectory(directory)
        do throws(StorageError) {
            var opener = StoreOpener(directory: directory, options: options, fileSystem: fileSystem)
            opener.restore = restore
            let (state, recovery) = try opener.run()
            let version = StorageVersion(
                keys: state.keys, segments: state.segments, dictionaries: state.dictionaries,
                sequence: state.nextSequence - 1, directory: directory, fileSystem: fileSystem,
                valueCache: DecodedValueCache(capacityBytes: options.decodedValueCacheBytes))
            let engine = StorageEngine(
                directory: directory, options: options, fileSystem: fileSystem, lock: lock,
                state: state, version: version, recovery: recovery, report: opener.report)
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
    private var keys = KeyDirectory()
    /// Keys whose newest record is a delete, with that record's sequence.
    private var deletes: [[UInt8]: UInt64] = [:]
    private var usage: [UInt64: SegmentUsage] = [:]
    private var highestSequence: UInt64 = 0
    /// The store's identity (chosen now for a version-1 store) and the bound below which
    /// segments and hints may be version-1 files.
    private var identity: StoreIdentity?
    private var legacyBelow: UInt64 = 1
    /// Puts whose keys ascend strictly, in the order read, held for one bulk build of the key
    /// directory (a store written in key order is read as one such run).
    private var ascendingRun = AscendingKeys()
    /// The records read that do not extend the run; applied one by one after the bulk build.
    private var deferred: [(key: [UInt8], tag: RecordTag, location: KeyLocation)] = []

    init(directory: String, options: StorageOptions, fileSystem: any FileSystem) {
        self.directory = directory
        self.options = options
        self.fileSystem = fileSystem
    }

    private func path(_ name: String) -> String { directory + "/" + name }

    mutating func run() throws(StorageError) -> (WriterState, Recovery) {
        let names = try fileSystem.listDirectory(directory)
        guard names.contains(FileNames.manifest) else {
            if options.readOnly {
                throw StorageError(.notFound, "There is no store at \(directory) (no MANIFEST) to open read-only.", file: path(FileNames.manifest))
            }
            return try create(in: names)
        }
        let manifestBytes = try readWhole(FileNames.manifest)
        var manifest = try manifestBytes.withBytes { (bytes) throws(StorageError) in
            try Manifest.decode(bytes, file: path(FileNames.manifest))
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
            DispatchQueue.global().async(group: background) { [directory, fileSystem, manifest] in
                let result = Self.readSnapshot(manifest, directory: directory, fileSystem: fileSystem)
                snapshotRead.result.withLock { $0 = result }
                if case .success(let snapshot?) = result { restore(snapshot.file.upperState) }
            }
        } else {
            snapshotRead.result.withLock { $0 = Self.readSnapshot(manifest, directory: directory, fileSystem: fileSystem) }
        }
        var compression = CompressionState()
        var dictionaries: [UInt16: LZ4Dictionary] = [:]
        for (index, entry) in manifest.dictionaries.enumerated() {
            let name = FileNames.name(.dictionary, entry.fileNumber)
            let bytes = try readWhole(name)
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
        let (active, activeEnd, activeHints, activeMinSequence, activeMaxSequence) = try loadActive(manifest.activeSegment)
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
            manifest.snapshotBinding = manifest.snapshot == 0 ? nil : SnapshotBinding(
                coveredSequence: read?.file.coveredSequence ?? 0, checksum: read?.checksum ?? 0,
                logSegment: 0, logOffset: 0)
            manifest.formatVersion = FormatHeader.identityVersion
            manifest.generation += 1
            try ManifestWriter(directory: directory, fileSystem: fileSystem).write(manifest)
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

    // MARK: - A new store

    /// Creates a store in a directory without `MANIFEST`, unless it holds store files other
    /// than the empty first segment an unfinished create leaves: those are a store whose
    /// manifest is lost, and nothing is touched (docs/durability.md, "Open and recovery").
    private mutating func create(in names: [String]) throws(StorageError) -> (WriterState, Recovery) {
        let storeFiles = names.filter { name in FileNames.parse(name).map { !$0.temporary } ?? false }
        var unaccounted: [String] = []
        for name in storeFiles {
            if name == FileNames.name(.segment, 1), try holdsNoRecord(name) { continue }
            unaccounted.append(name)
        }
        if let first = unaccounted.sorted().first {
            let more = unaccounted.count > 1 ? " and \(unaccounted.count - 1) more store files" : ""
            throw .corruption(
                "MANIFEST is missing but the directory holds \(first)\(more); nothing was changed. "
                    + "Run `stockpot salvage` to recover the entries into a new store.",
                file: path(FileNames.manifest))
        }
        for name in names where FileNames.parse(name) != nil || name == FileNames.temporary(FileNames.manifest) {
            try remove(name)
        }
        report.created = true
        // The store directory itself must survive a power loss: its entry lives in the parent.
        try fileSystem.syncDirectory(parentDirectory(of: directory))
        let identity = StoreIdentity.random()
        let segmentName = FileNames.name(.segment, 1)
        let handle = try fileSystem.openFile(path(segmentName), mode: .createOrTruncate)
        try handle.write(SegmentFormat.header(fileNumber: 1, identity: identity), at: 0)
        try handle.sync()
        let manifest = Manifest(identity: identity, generation: 1, nextFileNumber: 2, activeSegment: 1)
        try ManifestWriter(directory: directory, fileSystem: fileSystem).write(manifest)
        let active = SegmentFile(number: 1, path: path(segmentName), handle: handle)
        let state = WriterState(
            manifest: manifest, nextFileNumber: 2, nextSequence: 1, keys: KeyDirectory(),
            segments: SegmentSet([1: active]), dictionaries: DictionarySet([:]), active: active,
            activeEnd: SegmentFormat.headerSize, activeMinSequence: nil, activeHints: EncodedHints(),
            usage: [1: SegmentUsage(total: SegmentFormat.headerSize, dead: 0)],
            compression: CompressionState())
        return (state, Recovery(snapshot: nil, deletedAfterSnapshot: []))
    }

    // MARK: - Files

    private func parentDirectory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    private func readWhole(_ name: String) throws(StorageError) -> [UInt8] {
        let handle: any FileHandle
        do throws(StorageError) {
            handle = try fileSystem.openFile(path(name), mode: .readOnly)
        } catch where error.code == .notFound {
            throw .corruption("A file the store needs is missing.", file: path(name))
        }
        defer { handle.close() }
        return try handle.read(count: try handle.size(), at: 0)
    }

    /// Whether segment file `name` holds no record: it is shorter than a header, or nothing
    /// but zeros follows its header (a header written, nothing appended).
    private func holdsNoRecord(_ name: String) throws(StorageError) -> Bool {
        let bytes = try readWhole(name)
        let headerSize = bytes.withUnsafeBytes { SegmentFormat.announcedHeaderSize($0) } ?? SegmentFormat.headerSize
        return bytes.count <= headerSize || bytes[headerSize...].allSatisfy { $0 == 0 }
    }

    private mutating func remove(_ name: String) throws(StorageError) {
        try fileSystem.removeFile(path(name))
        report.removedFiles.append(name)
    }

    /// The snapshot the manifest names (`nil` when it names none) with its trailer checksum,
    /// or why it is unusable: it does not verify, or it is not the file the manifest pins
    /// (another store's, or an older one). Static, so that it can run on another thread while
    /// the open goes on.
    private static func readSnapshot(
        _ manifest: Manifest, directory: String, fileSystem: any FileSystem
    ) -> Result<ReadSnapshot?, StorageError> {
        guard manifest.snapshot != 0 else { return .success(nil) }
        let name = FileNames.name(.snapshot, manifest.snapshot)
        let reader = StoreOpener(directory: directory, options: StorageOptions(), fileSystem: fileSystem)
        do throws(StorageError) {
            let bytes = try reader.readWhole(name)
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

    // MARK: - Segments

    private mutating func loadSealed(_ sealed: SealedSegment) throws(StorageError) -> SegmentFile {
        let name = FileNames.name(.segment, sealed.number)
        let handle: any FileHandle
        do throws(StorageError) {
            handle = try fileSystem.openFile(path(name), mode: .readOnly)
        } catch where error.code == .notFound {
            throw .corruption("A sealed segment named by the manifest is missing.", file: path(name))
        }
        let size = try handle.size()
        guard size == Int(sealed.length) else {
            throw .corruption(
                "The sealed segment is \(size) bytes; the manifest says \(sealed.length).",
                file: path(name), offset: min(size, Int(sealed.length)))
        }
        let header = try handle.read(count: min(size, SegmentFormat.headerSize), at: 0)
        let firstRecord = try header.withBytes { (bytes) throws(StorageError) in
            try SegmentFormat.verifyHeader(
                bytes, fileNumber: sealed.number, identity: identity, allowsLegacy: sealed.number < legacyBelow,
                file: path(name))
        }
        let file = SegmentFile(number: sealed.number, path: path(name), handle: handle, firstRecordOffset: firstRecord)
        usage[sealed.number, default: SegmentUsage(total: 0, dead: 0)].total += size
        file.seal(length: size)
        let subject = HintSubject(
            segmentNumber: sealed.number, segmentLength: sealed.length, firstRecordOffset: firstRecord,
            identity: identity, allowsLegacy: sealed.number < legacyBelow)
        if loadHints(subject) { return file }
        let bytes = try handle.read(count: size, at: 0)
        report.segmentBytesRead += bytes.count
        let scan = try bytes.withBytes { (raw) throws(StorageError) in
            try SegmentScanner.scan(
                raw, file: path(name), fileNumber: sealed.number, identity: identity,
                allowsLegacy: sealed.number < legacyBelow, sealedLength: Int(sealed.length))
        }
        var hints = EncodedHints()
        for record in scan.records {
            let header = record.header
            record.key.withUnsafeBytes { key in
                collect(key, tag: header.tag, segment: sealed.number, offset: record.offset, length: header.recordLength, sequence: header.sequence)
            }
            hints.append(
                tag: header.tag, flags: header.flags, key: record.key, offset: record.offset,
                recordLength: header.recordLength, sequence: header.sequence, originalLength: header.originalLength)
        }
        rewriteHints(hints, subject)
        return file
    }

    /// Collects the records of `subject`'s segment from its hint file, and returns whether it
    /// could; on `false` (no hint file, or one that does not verify or is another store's)
    /// nothing was collected and the caller scans the segment.
    private mutating func loadHints(_ subject: HintSubject) -> Bool {
        let name = FileNames.name(.hint, subject.segmentNumber)
        guard fileSystem.fileExists(path(name)) else { return false }
        // What was collected before this file, to undo a file that fails its later checks.
        let runCount = ascendingRun.count
        let deferredCount = deferred.count
        let sequenceBefore = highestSequence
        do throws(StorageError) {
            let bytes = try readWhole(name)
            report.segmentBytesRead += bytes.count
            // At most one entry per 25 bytes (24 fixed, a key of 1 or more); keys fit in the file.
            ascendingRun.reserveCapacity(
                keys: runCount + bytes.count / (HintFormat.entryFixedSize + 1), bytes: ascendingRun.byteCount + bytes.count)
            try bytes.withBytes { (raw) throws(StorageError) in
                try HintFormat.forEachEntry(raw, subject, file: path(name)) { entry, key in
                    collect(key, tag: entry.tag, segment: subject.segmentNumber, offset: entry.offset, length: entry.recordLength, sequence: entry.sequence)
                }
            }
        } catch {
            ascendingRun.removeLast(after: runCount)
            deferred.removeSubrange(deferredCount...)
            highestSequence = sequenceBefore
            report.hintProblems.append(error)
            return false
        }
        return true
    }

    /// Writes the hint file of a sealed segment that had to be scanned (its hint was missing
    /// or unusable), so that the next open reads hints again. A failure only costs another
    /// scan next time.
    private mutating func rewriteHints(_ entries: EncodedHints, _ subject: HintSubject) {
        guard subject.identity != nil, !options.readOnly else { return }
        let final = path(FileNames.name(.hint, subject.segmentNumber))
        do throws(StorageError) {
            let bytes = try HintFormat.checkedFile(subject, entries: entries)
            try DurableReplacement.writeFile(bytes, to: final, directory: directory, syncDirectory: false, fileSystem: fileSystem)
            report.rewrittenHints.append(final)
        } catch {
            // The next open scans the segment again.
        }
    }

    private mutating func loadActive(
        _ number: UInt64
    ) throws(StorageError) -> (SegmentFile, Int, EncodedHints, minSequence: UInt64?, maxSequence: UInt64) {
        let name = FileNames.name(.segment, number)
        let handle: any FileHandle
        do throws(StorageError) {
            handle = try fileSystem.openFile(path(name), mode: options.readOnly ? .readOnly : .readWrite)
        } catch where error.code == .notFound {
            throw .corruption("The active segment named by the manifest is missing.", file: path(name))
        }
        let bytes = try handle.read(count: try handle.size(), at: 0)
        report.segmentBytesRead += bytes.count
        let scan = try bytes.withBytes { (raw) throws(StorageError) in
            try SegmentScanner.scan(
                raw, file: path(name), fileNumber: number, identity: identity, allowsLegacy: number < legacyBelow,
                sealedLength: nil)
        }
        let file = SegmentFile(number: number, path: path(name), handle: handle, firstRecordOffset: scan.headerSize)
        if let torn = scan.tornTail {
            report.tornTail = (path(name), torn.offset, torn.bytes)
        }
        if bytes.count > scan.validEnd, !options.readOnly {
            try handle.truncate(to: scan.validEnd)
            try handle.sync()
        }
        usage[number, default: SegmentUsage(total: 0, dead: 0)].total += scan.validEnd
        var hints = EncodedHints()
        hints.reserveCapacity(scan.records.reduce(0) { $0 + HintFormat.entryFixedSize + $1.key.count })
        var minSequence: UInt64?
        var maxSequence: UInt64 = 0
        for record in scan.records {
            let header = record.header
            record.key.withUnsafeBytes { key in
                collect(key, tag: header.tag, segment: number, offset: record.offset, length: header.recordLength, sequence: header.sequence)
            }
            hints.append(
                tag: header.tag, flags: header.flags, key: record.key, offset: record.offset,
                recordLength: header.recordLength, sequence: header.sequence, originalLength: header.originalLength)
            minSequence = min(minSequence ?? header.sequence, header.sequence)
            maxSequence = max(maxSequence, header.sequence)
        }
        return (file, scan.validEnd, hints, minSequence, maxSequence)
    }

    /// Notes one record read from a segment or hint file. Puts that extend the ascending run
    /// wait for the bulk build; the others are applied after it. Since the newest record of a
    /// key wins by sequence, not by the order records are applied, the result is the same as
    /// applying every record in the order read.
    private mutating func collect(_ key: UnsafeRawBufferPointer, tag: RecordTag, segment: UInt64, offset: Int, length: Int, sequence: UInt64) {
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
    private mutating func buildKeyDirectory() {
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
    private mutating func apply(_ key: [UInt8], tag: RecordTag, location: KeyLocation) {
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

    private mutating func markDead(_ segment: UInt64, _ length: Int) {
        usage[segment, default: SegmentUsage(total: 0, dead: 0)].dead += length
    }

    // MARK: - Orphans

    /// Removes numbered files the manifest does not name and no live record refers to.
    private mutating func removeOrphans(names: [String], manifest: Manifest, files: [UInt64: SegmentFile]) throws(StorageError) {
        let sealed = Set(manifest.sealedSegments.map(\.number))
        let dictionaryFiles = Set(manifest.dictionaries.map(\.fileNumber))
        var liveBlobs = Set<UInt64>()
        var blobLocations: [KeyLocation] = []
        keys.forEach { _, location in
            if location.kind == RecordTag.putBlob.rawValue { blobLocations.append(location) }
            return true
        }
        for location in blobLocations {
            guard let file = files[UInt64(location.segment)] else { continue }
            let (_, _, stored) = try file.readRecord(at: Int(location.offset), length: Int(location.length))
            if let reference = stored.withUnsafeBytes({ BlobReference(decoding: $0) }) {
                liveBlobs.insert(reference.fileNumber)
            }
        }
        for name in names {
            guard let parsed = FileNames.parse(name), !parsed.temporary else { continue }
            let keep: Bool
            switch parsed.kind {
            case .segment: keep = sealed.contains(parsed.number) || parsed.number == manifest.activeSegment
            case .hint: keep = sealed.contains(parsed.number)
            case .dictionary: keep = dictionaryFiles.contains(parsed.number)
            case .snapshot: keep = parsed.number == manifest.snapshot
            case .blob: keep = liveBlobs.contains(parsed.number)
            }
            guard !keep else { continue }
            if parsed.kind == .segment, !(try isOwnSegment(name, number: parsed.number)) {
                throw .corruption(
                    "The segment is not named by the manifest and does not belong to this store; nothing was changed.",
                    file: path(name), offset: 0)
            }
            try remove(name)
        }
    }

    /// Whether an unnamed segment is provably this store's leftover: its header carries the
    /// store's identity (or is a version-1 header below the legacy bound), or it holds no
    /// record at all (a header not yet durable when a crash came).
    private func isOwnSegment(_ name: String, number: UInt64) throws(StorageError) -> Bool {
        let bytes = try readWhole(name)
        let ownHeader = bytes.withUnsafeBytes { raw in
            (try? SegmentFormat.verifyHeader(
                raw, fileNumber: number, identity: identity, allowsLegacy: number < legacyBelow, file: path(name))) != nil
        }
        if ownHeader { return true }
        return try holdsNoRecord(name)
    }
}
