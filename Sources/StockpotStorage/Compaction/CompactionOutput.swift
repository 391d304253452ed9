// The segments a compaction writes: live records copied with their sequence numbers, each
// its own batch, rolled at the segment size; then the switch to them under the writer lock.

/// A segment a compaction finished writing.
struct WrittenSegment {
    var file: SegmentFile
    var sealed: SealedSegment
    /// Bytes of delete records copied (counted dead, as the open counts them).
    var deleteBytes: Int
}

/// A record a compaction copied: where it was and where it is now.
struct RecordMove {
    var key: [UInt8]
    var fromSegment: UInt32
    var fromOffset: UInt32
    var to: KeyLocation
}

struct CompactionOutput {
    let engine: StorageEngine
    private(set) var moves: [RecordMove] = []
    private var finished: [WrittenSegment] = []
    private var file: SegmentFile?
    private var end = 0
    private var buffer: [UInt8] = []
    private var hints = EncodedHints()
    private var minSequence = UInt64.max
    private var maxSequence: UInt64 = 0
    private var deleteBytes = 0

    init(engine: StorageEngine) {
        self.engine = engine
    }

    /// Copies one record (its header and stored value) into the output, as a batch of one.
    mutating func add(_ record: ScannedRecord, stored: UnsafeRawBufferPointer, from segment: UInt64) throws(StorageError) {
        var header = record.header
        header.flags.insert(.batchEnd)
        let extraBytes = engine.cipher == nil ? 0 : FileCipher.recordOverhead
        if file == nil
            || (end + buffer.count + header.recordLength + extraBytes > engine.options.segmentRollBytes
                && end + buffer.count > SegmentFormat.headerSize)
        {
            try sealCurrent()
            try startSegment()
        }
        guard let file else { return }
        let offset = end + buffer.count
        // Sealed again for the new place: a copy gets a fresh nonce and is bound to its new offset.
        let length = record.key.withUnsafeBytes { key in
            file.records.append(header, key: key, storedValue: stored, at: offset, to: &buffer).length
        }
        hints.append(
            tag: header.tag, flags: header.flags, key: record.key, offset: offset,
            recordLength: length, sequence: header.sequence, originalLength: header.originalLength)
        minSequence = min(minSequence, header.sequence)
        maxSequence = max(maxSequence, header.sequence)
        if header.tag == .delete {
            deleteBytes += length
        } else {
            moves.append(
                RecordMove(
                    key: record.key, fromSegment: UInt32(truncatingIfNeeded: segment),
                    fromOffset: UInt32(truncatingIfNeeded: record.offset),
                    to: KeyLocation(
                        segment: UInt32(truncatingIfNeeded: file.number), offset: UInt32(offset),
                        length: UInt32(length), sequence: header.sequence, kind: header.tag.rawValue)))
        }
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Seals the last segment; every output is then durable, with its hint file.
    mutating func finish() throws(StorageError) -> [WrittenSegment] {
        try sealCurrent()
        if !finished.isEmpty { try engine.fileSystem.syncDirectory(engine.directory) }
        return finished
    }

    private mutating func startSegment() throws(StorageError) {
        let number = engine.writer.withLock { $0.allocateFileNumber() }
        let path = engine.path(FileNames.name(.segment, number))
        let handle = try engine.fileSystem.openFile(path, mode: .createNew)
        file = SegmentFile(number: number, path: path, handle: handle, cipher: engine.cipher)
        buffer = SegmentFormat.header(fileNumber: number, identity: engine.identity, sealed: engine.cipher != nil)
        // Records are appended one by one and flushed every MiB: without room reserved, each
        // append would reallocate and copy the buffer.
        buffer.reserveCapacity(2 << 20)
        end = 0
        hints.removeAll()
        minSequence = .max
        maxSequence = 0
        deleteBytes = 0
    }

    private mutating func flush() throws(StorageError) {
        guard let file, !buffer.isEmpty else { return }
        try file.handle.write(buffer, at: end)
        end += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func sealCurrent() throws(StorageError) {
        guard let file else { return }
        try flush()
        try file.handle.sync()
        file.seal(length: end)
        engine.warmer.warm([file])
        try? engine.writeHints(hints, segment: file.number, length: end)
        finished.append(
            WrittenSegment(
                file: file,
                sealed: SealedSegment(number: file.number, length: UInt64(end), minSequence: minSequence, maxSequence: maxSequence),
                deleteBytes: deleteBytes))
        self.file = nil
    }
}

extension StorageEngine {
    /// Points the key directory at the copies, writes the manifest that names the outputs
    /// instead of the inputs, publishes, then deletes the inputs.
    func switchTo(_ written: [WrittenSegment], replacing inputs: [SealedSegment], moves: [RecordMove]) throws(StorageError) {
        let inputNumbers = Set(inputs.map(\.number))
        try writer.withLock { (state) throws(StorageError) in
            try checkWritable(state)
            // Everything appended is made durable, so that the version published below shows
            // no batch a crash could take back.
            do throws(StorageError) {
                try state.active.handle.sync()
            } catch {
                throw poison(&state, error, doing: "An fsync of the log")
            }
            commits.markDurable(through: LogPosition(segment: state.active.number, offset: state.activeEnd))
            releaseBlobsAwaitingSync(&state)
            var usage: [UInt64: SegmentUsage] = [:]
            for segment in written {
                usage[segment.sealed.number] = SegmentUsage(total: Int(segment.sealed.length), dead: segment.deleteBytes)
            }
            for move in moves {
                if let location = state.keys.location(for: move.key),
                    location.segment == move.fromSegment, location.offset == move.fromOffset
                {
                    state.keys.setLocation(move.to, for: move.key)
                } else {
                    // Overwritten or deleted while the copy ran.
                    usage[UInt64(move.to.segment), default: SegmentUsage(total: 0, dead: 0)].dead += Int(move.to.length)
                }
            }
            var manifest = state.manifest
            manifest.sealedSegments =
                (manifest.sealedSegments.filter { !inputNumbers.contains($0.number) }
                + written.map(\.sealed)).sorted { $0.number < $1.number }
            try writeManifest(manifest, state: &state)
            state.segments = state.segments.replacing(adding: written.map(\.file), removing: inputNumbers)
            for number in inputNumbers { state.usage[number] = nil }
            for (number, entry) in usage { state.usage[number] = entry }
            let version = StorageVersion(
                keys: state.keys, segments: state.segments, dictionaries: state.dictionaries,
                sequence: state.nextSequence - 1, directory: directory, fileSystem: fileSystem,
                valueCache: valueCache, cipher: cipher)
            current.publish(version)
        }
        // Views taken before the switch keep the old files open, so they can still read them.
        for number in inputNumbers {
            try? fileSystem.removeFile(path(FileNames.name(.segment, number)))
            try? fileSystem.removeFile(path(FileNames.name(.hint, number)))
        }
    }
}
