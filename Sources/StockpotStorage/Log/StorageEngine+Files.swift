// Changes to the store's set of files, all under the writer lock: segment roll, a new
// dictionary, the manifest that names them (docs/durability.md).

import StockpotCore

extension StorageEngine {
    func path(_ name: String) -> String { directory + "/" + name }

    /// Writes `manifest` durably, poisoning the store when that fails (the manifest on disk is
    /// then unknown).
    func writeManifest(_ manifest: Manifest, state: inout WriterState) throws(StorageError) {
        var manifest = manifest
        manifest.generation = state.manifest.generation + 1
        manifest.nextFileNumber = max(manifest.nextFileNumber, state.nextFileNumber)
        do throws(StorageError) {
            try ManifestWriter(directory: directory, fileSystem: fileSystem, cipher: cipher).write(manifest)
        } catch {
            throw poison(&state, error, doing: "Writing the manifest")
        }
        state.manifest = manifest
    }

    /// Seals the active segment and starts a new one (docs/durability.md, "Segment roll").
    func roll(_ state: inout WriterState) throws(StorageError) {
        let old = state.active
        do throws(StorageError) {
            try cutPreallocation(&state)
            try old.handle.sync()
        } catch {
            throw poison(&state, error, doing: "An fsync of the log")
        }
        let sealedEnd = LogPosition(segment: old.number, offset: state.activeEnd)
        old.seal(length: state.activeEnd)
        warmer.warm([old])
        commits.markDurable(through: sealedEnd)
        releaseBlobsAwaitingSync(&state)
        let number = state.allocateFileNumber()
        let name = FileNames.name(.segment, number)
        let handle: any FileHandle
        do throws(StorageError) {
            handle = try fileSystem.openFile(path(name), mode: .createNew)
            try handle.write(SegmentFormat.header(fileNumber: number, identity: identity, sealed: cipher != nil), at: 0)
            try handle.sync()
            try fileSystem.syncDirectory(directory)
        } catch {
            throw poison(&state, error, doing: "Creating segment \(name)")
        }
        var manifest = state.manifest
        manifest.sealedSegments.append(
            SealedSegment(
                number: old.number, length: UInt64(state.activeEnd),
                minSequence: state.activeMinSequence ?? 0, maxSequence: state.activeMaxSequence))
        manifest.activeSegment = number
        try writeManifest(manifest, state: &state)
        let next = SegmentFile(number: number, path: path(name), handle: handle, cipher: cipher)
        state.segments = state.segments.replacing(adding: [next], removing: [])
        let hints = state.activeHints
        let spill = state.hintSpill
        state.hintSpill = HintSpill()
        state.active = next
        state.activeEnd = SegmentFormat.headerSize
        state.activePreallocatedEnd = 0
        state.activeMinSequence = nil
        state.activeMaxSequence = 0
        state.activeHints = EncodedHints()
        state.usage[number] = SegmentUsage(total: SegmentFormat.headerSize, dead: 0)
        commits.didRoll(
            sealedThrough: sealedEnd, next: handle,
            start: LogPosition(segment: number, offset: SegmentFormat.headerSize))
        // A lost or failed hint file only costs a scan at the next open.
        try? writeHints(hints, spilled: spill, segment: old.number, firstRecordOffset: old.firstRecordOffset, length: sealedEnd.offset)
    }

    /// Hint entries kept in memory past this many bytes are appended to the active segment's
    /// temporary hint file (one write per ~1,800 small records).
    static let hintSpillBytes = 64 << 10

    /// Moves the active segment's in-memory hint entries to its temporary hint file once they
    /// pass ``hintSpillBytes``. A failure is not an error of the write: the entries stay in
    /// memory, and so do this segment's later ones. An encrypted store never spills: the
    /// entries hold keys, which must not reach the disk in the clear.
    func spillHintsIfLarge(_ state: inout WriterState) {
        guard cipher == nil, state.activeHints.bytes.count >= Self.hintSpillBytes, !state.hintSpill.failed else { return }
        do throws(StorageError) {
            let handle: any FileHandle
            if let open = state.hintSpill.handle {
                handle = open
            } else {
                let temporary = FileNames.temporary(path(FileNames.name(.hint, state.active.number)))
                handle = try fileSystem.openFile(temporary, mode: .createOrTruncate)
                state.hintSpill.handle = handle
            }
            try handle.write(state.activeHints.bytes, at: state.hintSpill.bytes)
            state.hintSpill.bytes += state.activeHints.bytes.count
            state.hintSpill.count += state.activeHints.count
            state.activeHints.removeAll()
        } catch {
            state.hintSpill.failed = true
        }
    }

    /// After an fsync of the whole log: superseded blobs are no longer needed by any durable
    /// record, and go once current readers are done.
    func releaseBlobsAwaitingSync(_ state: inout WriterState) {
        guard !state.blobsAwaitingSync.isEmpty else { return }
        removeWhenReleased(state.blobsAwaitingSync, after: current.version)
        state.blobsAwaitingSync = []
    }

    /// Closes and removes the active segment's temporary hint file, if entries were spilled.
    func removeHintSpill(_ state: inout WriterState) {
        guard let handle = state.hintSpill.handle else { return }
        handle.close()
        try? fileSystem.removeFile(FileNames.temporary(path(FileNames.name(.hint, state.active.number))))
        state.hintSpill = HintSpill()
    }

    /// Writes a sealed segment's hint file (temporary file, fsync, rename): the entries spilled
    /// to the temporary file while it was active, read back, then `entries`.
    ///
    /// - Throws: `corruption` when the spilled entries do not read back as valid ones (no hint
    ///   file is written: the next open scans the segment); `ioError`.
    func writeHints(
        _ entries: EncodedHints, spilled: HintSpill = HintSpill(), segment: UInt64,
        firstRecordOffset: Int = SegmentFormat.headerSize, length: Int
    ) throws(StorageError) {
        let final = path(FileNames.name(.hint, segment))
        let temporary = FileNames.temporary(final)
        var all = entries
        if let spillHandle = spilled.handle {
            defer { spillHandle.close() }
            let bytes = try spillHandle.read(count: spilled.bytes, at: 0)
            guard bytes.count == spilled.bytes else {
                throw .corruption("The spilled hint entries are shorter than written.", file: temporary, offset: bytes.count)
            }
            all = EncodedHints(encoded: bytes, count: spilled.count)
            all.append(contentsOf: entries)
        }
        let subject = HintSubject(
            segmentNumber: segment, segmentLength: UInt64(length), firstRecordOffset: firstRecordOffset,
            identity: identity, recordExtraBytes: cipher == nil ? 0 : FileCipher.recordOverhead)
        let file = cipher.sealed(try HintFormat.checkedFile(subject, entries: all), kind: .hint, number: segment)
        // Nothing refers to a hint: a lost rename only costs a scan, so no directory fsync.
        try DurableReplacement.writeFile(file, to: final, directory: directory, syncDirectory: false, fileSystem: fileSystem)
    }

    /// Makes `content` the dictionary of `space` (docs/durability.md, "New dictionary").
    func installDictionary(_ content: [UInt8], space: UInt32, state: inout WriterState) throws(StorageError) {
        let id = state.compression.nextDictionaryID
        guard id != 0 else { return }  // all 65,535 ids used: the space stays uncompressed
        let number = state.allocateFileNumber()
        let final = path(FileNames.name(.dictionary, number))
        do throws(StorageError) {
            try DurableReplacement.writeFile(
                cipher.sealed(DictionaryFormat.encode(id: id, keySpace: space, content: content), kind: .dictionary, number: number),
                to: final, directory: directory,
                fileSystem: fileSystem)
        } catch {
            throw poison(&state, error, doing: "Writing dictionary \(final)")
        }
        var manifest = state.manifest
        manifest.dictionaries.append(
            DictionaryEntry(fileNumber: number, id: id, keySpace: space, contentChecksum: Checksum.xxh3(content)))
        try writeManifest(manifest, state: &state)
        let dictionary = LZ4Dictionary(content)
        state.compression.install(id: id, dictionary: dictionary, space: space)
        var contents = state.dictionaries.contents
        contents[id] = dictionary
        state.dictionaries = DictionarySet(contents)
    }
}
