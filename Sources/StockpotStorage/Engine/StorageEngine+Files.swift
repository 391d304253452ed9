// Changes to the store's set of files, all under the writer lock: segment roll, a new
// dictionary, the manifest that names them (docs/durability.md).

extension StorageEngine {
    func path(_ name: String) -> String { directory + "/" + name }

    /// Writes `manifest` durably, poisoning the store when that fails (the manifest on disk is
    /// then unknown).
    func writeManifest(_ manifest: Manifest, state: inout WriterState) throws(StorageError) {
        var manifest = manifest
        manifest.generation = state.manifest.generation + 1
        manifest.nextFileNumber = max(manifest.nextFileNumber, state.nextFileNumber)
        do throws(StorageError) {
            try ManifestWriter(directory: directory, fileSystem: fileSystem).write(manifest)
        } catch {
            throw poison(&state, error, doing: "Writing the manifest")
        }
        state.manifest = manifest
    }

    /// Seals the active segment and starts a new one (docs/durability.md, "Segment roll").
    func roll(_ state: inout WriterState) throws(StorageError) {
        let old = state.active
        do throws(StorageError) {
            try old.handle.sync()
        } catch {
            throw poison(&state, error, doing: "An fsync of the log")
        }
        let sealedEnd = LogPosition(segment: old.number, offset: state.activeEnd)
        old.seal(length: state.activeEnd)
        commits.markDurable(through: sealedEnd)
        releaseBlobsAwaitingSync(&state)
        let number = state.allocateFileNumber()
        let name = FileNames.name(.segment, number)
        let handle: any FileHandle
        do throws(StorageError) {
            handle = try fileSystem.openFile(path(name), mode: .createNew)
            try handle.write(SegmentFormat.header(fileNumber: number), at: 0)
            try handle.sync()
            try fileSystem.syncDirectory(directory)
        } catch {
            throw poison(&state, error, doing: "Creating segment \(name)")
        }
        var manifest = state.manifest
        manifest.sealedSegments.append(SealedSegment(
            number: old.number, length: UInt64(state.activeEnd),
            minSequence: state.activeMinSequence ?? 0, maxSequence: state.activeMaxSequence))
        manifest.activeSegment = number
        try writeManifest(manifest, state: &state)
        let next = SegmentFile(number: number, path: path(name), handle: handle)
        state.segments = state.segments.replacing(adding: [next], removing: [])
        let hints = state.activeHints
        state.active = next
        state.activeEnd = SegmentFormat.headerSize
        state.activeMinSequence = nil
        state.activeMaxSequence = 0
        state.activeHints = EncodedHints()
        state.usage[number] = SegmentUsage(total: SegmentFormat.headerSize, dead: 0)
        commits.didRoll(
            sealedThrough: sealedEnd, next: handle,
            start: LogPosition(segment: number, offset: SegmentFormat.headerSize))
        // A lost or failed hint file only costs a scan at the next open.
        try? writeHints(hints, segment: old.number, length: sealedEnd.offset)
    }

    /// After an fsync of the whole log: superseded blobs are no longer needed by any durable
    /// record, and go once current readers are done.
    func releaseBlobsAwaitingSync(_ state: inout WriterState) {
        guard !state.blobsAwaitingSync.isEmpty else { return }
        removeWhenReleased(state.blobsAwaitingSync, after: current.version)
        state.blobsAwaitingSync = []
    }

    /// Writes a sealed segment's hint file (temporary file, fsync, rename).
    func writeHints(_ entries: EncodedHints, segment: UInt64, length: Int) throws(StorageError) {
        let final = path(FileNames.name(.hint, segment))
        let temporary = FileNames.temporary(final)
        let handle = try fileSystem.openFile(temporary, mode: .createOrTruncate)
        defer { handle.close() }
        try handle.write(HintFormat.encode(segmentNumber: segment, segmentLength: UInt64(length), entries: entries), at: 0)
        try handle.sync()
        try fileSystem.rename(temporary, to: final)
    }

    /// Makes `content` the dictionary of `space` (docs/durability.md, "New dictionary").
    func installDictionary(_ content: [UInt8], space: UInt32, state: inout WriterState) throws(StorageError) {
        let id = state.compression.nextDictionaryID
        guard id != 0 else { return }  // all 65,535 ids used: the space stays uncompressed
        let number = state.allocateFileNumber()
        let final = path(FileNames.name(.dictionary, number))
        let temporary = FileNames.temporary(final)
        do throws(StorageError) {
            let handle = try fileSystem.openFile(temporary, mode: .createOrTruncate)
            defer { handle.close() }
            try handle.write(DictionaryFormat.encode(id: id, keySpace: space, content: content), at: 0)
            try handle.sync()
            try fileSystem.rename(temporary, to: final)
            try fileSystem.syncDirectory(directory)
        } catch {
            throw poison(&state, error, doing: "Writing dictionary \(final)")
        }
        var manifest = state.manifest
        manifest.dictionaries.append(DictionaryEntry(fileNumber: number, id: id, keySpace: space))
        try writeManifest(manifest, state: &state)
        let dictionary = LZ4Dictionary(content)
        state.compression.install(id: id, dictionary: dictionary, space: space)
        var contents = state.dictionaries.contents
        contents[id] = dictionary
        state.dictionaries = DictionarySet(contents)
    }
}
