// Committing a batch: encode its records, append them to the active segment in one write,
// update the working key directory, then wait for group commit (docs/durability.md).

import StockpotCore

extension StorageEngine {
    /// The longest key, in bytes.
    public static let maximumKeyLength = 65_535
    /// The most bytes one batch may encode to (values over the blob threshold count 24 bytes).
    public static let maximumBatchBytes = 1 << 30

    /// Commits `batch` atomically and returns the sequence number of its last record (0 when
    /// the batch changed nothing). With ``Durability/full`` it returns once the batch is
    /// durable; it is then visible to every view taken afterwards.
    ///
    /// - Throws: `invalidArgument` for an empty or over-long key; `poisoned` after an earlier
    ///   write or fsync failed; `closed`; `ioError`. A batch that throws wrote nothing that a
    ///   reader or a reopen will see.
    @discardableResult
    public func write(_ batch: WriteBatch) throws(StorageError) -> UInt64 {
        for operation in batch.operations {
            let key = operation.key
            guard !key.isEmpty, key.count <= Self.maximumKeyLength else {
                throw StorageError(.invalidArgument, "A key must be 1 to \(Self.maximumKeyLength) bytes; this one is \(key.count).")
            }
        }
        let appended = try writer.withLock { (state) throws(StorageError) -> AppendedBatch? in
            try append(batch, state: &state)
        }
        guard let appended else { return 0 }
        switch options.durability {
        case .full:
            try commits.waitUntilDurable(appended.end)
            // The batch is durable, so no durable record needs these blobs; readers of the
            // version before it may still read them.
            removeWhenReleased(appended.supersededBlobs, after: appended.previous)
        case .interval, .none:
            commits.publishAppended()
            // Not durable yet: the blobs wait for the next fsync the writer makes itself.
            writer.withLock { $0.blobsAwaitingSync += appended.supersededBlobs }
        }
        background.noteWrite(engine: self)
        return appended.lastSequence
    }
}

/// What the writer appended for one batch.
struct AppendedBatch {
    var end: LogPosition
    var lastSequence: UInt64
    /// The version readers saw before the batch.
    var previous: StorageVersion
    /// Blob files that the batch's records superseded.
    var supersededBlobs: [UInt64]
}

/// One record of a batch before it is encoded.
struct PendingRecord {
    var key: [UInt8]
    var header: RecordHeader
    var stored: [UInt8]
}

extension StorageEngine {
    /// Appends the batch's records under the writer lock; `nil` when it changes nothing.
    func append(_ batch: WriteBatch, state: inout WriterState) throws(StorageError) -> AppendedBatch? {
        try checkWritable(state)
        if state.activeEnd >= options.segmentRollBytes {
            try roll(&state)
        }
        let records = try makeRecords(batch, state: &state)
        guard !records.isEmpty else { return nil }
        // Everything that can fail is done before the append: once the records are in the
        // log, only a failed write (which poisons) may stop the batch.
        let previous = current.version
        let layout = state.active.records
        let batchBytes = records.reduce(0) { $0 + layout.length(of: $1.header) }
        guard batchBytes <= Self.maximumBatchBytes else {
            throw StorageError(
                .limitExceeded,
                "A batch encodes to \(batchBytes) bytes; the limit is \(Self.maximumBatchBytes). Split it, or lower the blob threshold.")
        }
        // Offsets in a segment are 32-bit (hint files, key directory).
        if state.activeEnd + batchBytes > Int(UInt32.max) {
            try roll(&state)
        }
        let lengths = records.map { layout.length(of: $0.header) }
        var offsets: [Int] = []
        offsets.reserveCapacity(records.count)
        var next = state.activeEnd
        for length in lengths {
            offsets.append(next)
            next += length
        }
        let encoded = Self.encode(records, at: offsets, layout: layout, bytes: batchBytes)
        preallocate(toHold: state.activeEnd + encoded.count, state: &state)
        do throws(StorageError) {
            try state.active.handle.write(encoded, at: state.activeEnd)
        } catch {
            throw poison(&state, error, doing: "A write to the log")
        }
        // The device starts on the batch while the key directory and hints take it in, so the
        // commit's fsync waits for less (docs/durability.md, "Commit a batch").
        if options.durability == .full { state.active.handle.startWriteback(offset: state.activeEnd, count: encoded.count) }
        var supersededBlobs: [UInt64] = []
        for index in records.indices {
            applyAppended(
                records[index], at: offsets[index], length: lengths[index], state: &state, supersededBlobs: &supersededBlobs)
        }
        state.activeEnd += encoded.count
        spillHintsIfLarge(&state)
        state.usage[state.active.number, default: SegmentUsage(total: 0, dead: 0)].total += encoded.count
        state.bytesSinceSnapshot += encoded.count
        let lastSequence = records[records.count - 1].header.sequence
        state.activeMinSequence = state.activeMinSequence ?? records[0].header.sequence
        state.activeMaxSequence = lastSequence
        state.nextSequence = lastSequence + 1
        let version = StorageVersion(
            keys: state.keys, segments: state.segments, dictionaries: state.dictionaries,
            sequence: lastSequence, directory: directory, fileSystem: fileSystem, valueCache: valueCache, cipher: cipher)
        let end = LogPosition(segment: state.active.number, offset: state.activeEnd)
        commits.didAppend(end: end, version: version)
        return AppendedBatch(end: end, lastSequence: lastSequence, previous: previous, supersededBlobs: supersededBlobs)
    }

    /// The batch's records as the segment holds them, back to back, each starting at its
    /// offset. Sealing (an encrypted store) costs more than the rest of a record's encoding, and
    /// each record is sealed on its own, so a large batch is sealed on every core.
    private static func encode(
        _ records: [PendingRecord], at offsets: [Int], layout: SegmentRecords, bytes: Int
    ) -> [UInt8] {
        func append(_ record: PendingRecord, at offset: Int, to output: inout [UInt8]) {
            record.key.withUnsafeBytes { key in
                record.stored.withUnsafeBytes { stored in
                    _ = layout.append(record.header, key: key, storedValue: stored, at: offset, to: &output)
                }
            }
        }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(bytes)
        guard layout.cipher != nil, records.count >= CompressionJob.parallelThreshold else {
            for index in records.indices { append(records[index], at: offsets[index], to: &encoded) }
            return encoded
        }
        let parts = Parallel.mapParts(count: records.count, minimumPerPart: CompressionJob.parallelThreshold / 2) {
            (range: Range<Int>, results: Parallel.Results<[UInt8]>) in
            for index in range {
                var sealed: [UInt8] = []
                append(records[index], at: offsets[index], to: &sealed)
                results.set(index, sealed)
            }
        }
        for part in parts { encoded.append(contentsOf: part) }
        return encoded
    }

    /// Extends the active segment's file past `end` in steps of `preallocationBytes` when an
    /// append would end beyond it (docs/durability.md, "Commit a batch"). Best effort: after a
    /// failure the appends go on into the file as it is, and preallocation waits for the next
    /// segment.
    private func preallocate(toHold end: Int, state: inout WriterState) {
        let step = options.preallocationBytes
        guard step > 0, end > state.activePreallocatedEnd else { return }
        let size = (end / step + 1) * step
        do throws(StorageError) {
            try state.active.handle.preallocate(size: size)
            state.activePreallocatedEnd = size
        } catch {
            state.activePreallocatedEnd = .max
        }
    }

    /// Cuts the active segment's preallocated zero bytes, before it is sealed or the store
    /// closes (the caller fsyncs next). Nothing to do when the file was not extended (after
    /// a failed preallocation its size is unknown, so it is cut).
    func cutPreallocation(_ state: inout WriterState) throws(StorageError) {
        guard state.activePreallocatedEnd > state.activeEnd else { return }
        try state.active.handle.truncate(to: state.activeEnd)
        state.activePreallocatedEnd = 0
    }

    /// The batch's records, sequence numbers assigned and the last one marked as the batch end.
    /// Deletes of keys without a value are dropped; large values go to blob files first.
    /// Values are compressed after one sequential pass (which trains and installs
    /// dictionaries in batch order), on every core when the batch is large.
    private func makeRecords(_ batch: WriteBatch, state: inout WriterState) throws(StorageError) -> [PendingRecord] {
        var records: [PendingRecord] = []
        var jobs: [CompressionJob] = []
        var sequence = state.nextSequence
        // Only a delete needs to know whether its key has a value at that point of the batch;
        // a batch of puts (the ingestion case) hashes no keys.
        let hasDeletes = batch.operations.contains { if case .delete = $0 { true } else { false } }
        var hasValueInBatch: [[UInt8]: Bool] = [:]
        for operation in batch.operations {
            switch operation {
            case .put(let key, let value):
                let (header, stored, job) = try prepareValue(value, key: key, sequence: sequence, state: &state)
                if let job {
                    jobs.append(CompressionJob(record: records.count, value: value, dictionary: job.dictionary, dictionaryID: job.dictionaryID))
                }
                records.append(PendingRecord(key: key, header: header, stored: stored))
                if hasDeletes { hasValueInBatch[key] = true }
            case .delete(let key):
                let hasValue = hasValueInBatch[key] ?? (state.keys.location(for: key) != nil)
                guard hasValue else { continue }
                let header = RecordHeader(
                    tag: .delete, flags: [], dictionaryID: 0, sequence: sequence,
                    keyLength: key.count, storedLength: 0, originalLength: 0)
                records.append(PendingRecord(key: key, header: header, stored: []))
                hasValueInBatch[key] = false
            }
            sequence += 1
        }
        for (job, compressed) in zip(jobs, CompressionJob.run(jobs)) {
            guard let compressed else { continue }  // not worth it: stored as it is
            records[job.record].stored = compressed
            records[job.record].header.flags.insert(.compressed)
            records[job.record].header.dictionaryID = job.dictionaryID
            records[job.record].header.storedLength = compressed.count
        }
        if !records.isEmpty {
            records[records.count - 1].header.flags.insert(.batchEnd)
        }
        return records
    }

    /// The header and stored bytes of a put (a blob reference, or the value as it is), and
    /// what to compress it with when it may be worth compressing.
    private func prepareValue(
        _ value: [UInt8], key: [UInt8], sequence: UInt64, state: inout WriterState
    ) throws(StorageError) -> (RecordHeader, [UInt8], (dictionary: LZ4Dictionary?, dictionaryID: UInt16)?) {
        if value.count > options.blobThreshold {
            let number = state.allocateFileNumber()
            let reference = try BlobStore(directory: directory, fileSystem: fileSystem, cipher: cipher).write(value, number: number)
            let stored = reference.encoded()
            return (
                RecordHeader(
                    tag: .putBlob, flags: [], dictionaryID: 0, sequence: sequence, keyLength: key.count,
                    storedLength: stored.count, originalLength: stored.count), stored, nil
            )
        }
        let space = CompressionState.space(of: key)
        if let content = state.compression.observe(value, space: space, options: options) {
            try installDictionary(content, space: space, state: &state)
        }
        let header = RecordHeader(
            tag: .put, flags: [], dictionaryID: 0, sequence: sequence, keyLength: key.count,
            storedLength: value.count, originalLength: value.count)
        guard value.count >= options.minimumCompressedBytes else { return (header, value, nil) }
        let compression = state.compression.spaces[space]
        let dictionary = compression?.dictionary
        return (header, value, (dictionary, dictionary == nil ? 0 : compression!.dictionaryID))
    }

    /// Points the working key directory at an appended record, counting what it supersedes as
    /// dead, and notes it for the segment's hint file. A superseded put-blob record's blob file
    /// (a key's value before the batch, or one written earlier in the same batch) is added to
    /// `supersededBlobs`, for removal once no reader needs it.
    private func applyAppended(
        _ record: PendingRecord, at offset: Int, length: Int, state: inout WriterState, supersededBlobs: inout [UInt64]
    ) {
        let header = record.header
        let location = KeyLocation(
            segment: UInt32(truncatingIfNeeded: state.active.number), offset: UInt32(truncatingIfNeeded: offset),
            length: UInt32(length), sequence: header.sequence, kind: header.tag.rawValue)
        let previous: KeyLocation?
        if header.tag == .delete {
            previous = state.keys.removeLocation(for: record.key)
            state.markDead(location)
        } else {
            previous = state.keys.setLocation(location, for: record.key)
        }
        if let previous {
            state.markDead(previous)
            // Only a key whose value was a blob pays a read here. A record that does not read
            // back leaves its blob in place: the next open removes blobs no live key names.
            if previous.kind == RecordTag.putBlob.rawValue, let number = try? blobNumber(at: previous, state: state) {
                supersededBlobs.append(number)
            }
        }
        state.activeHints.append(
            tag: header.tag, flags: header.flags, key: record.key, offset: offset,
            recordLength: length, sequence: header.sequence, originalLength: header.originalLength)
    }

    /// The blob file a put-blob record refers to.
    private func blobNumber(at location: KeyLocation, state: borrowing WriterState) throws(StorageError) -> UInt64 {
        guard let file = state.segments.files[UInt64(location.segment)] else {
            throw .corruption("A put-blob record's segment is not open.", file: FileNames.name(.segment, UInt64(location.segment)))
        }
        let (_, _, stored) = try file.readRecord(at: Int(location.offset), length: Int(location.length))
        guard let reference = stored.withUnsafeBytes({ BlobReference(decoding: $0) }) else {
            throw .corruption("A blob reference does not decode.", file: file.path, offset: Int(location.offset))
        }
        return reference.fileNumber
    }

    /// Removes blob files once `version` (and so every reader that could see them) is gone.
    func removeWhenReleased(_ blobs: [UInt64], after version: StorageVersion) {
        guard !blobs.isEmpty else { return }
        let store = BlobStore(directory: directory, fileSystem: fileSystem, cipher: cipher)
        version.holdUntilReleased(DeferredRemoval(fileSystem: fileSystem, paths: blobs.map { store.path($0) }))
    }

    /// Fails when the store cannot take writes.
    func checkWritable(_ state: borrowing WriterState) throws(StorageError) {
        if state.closed { throw StorageError(.closed, "The store is closed.") }
        if options.readOnly { throw StorageError(.readOnly, "The store was opened read-only.") }
        if let poisoned = state.poisoned { throw poisoned }
        if let poisoned = commits.poison { throw poisoned }
    }

    /// Records a failed write or fsync: the store takes no more writes until reopened.
    func poison(_ state: inout WriterState, _ error: StorageError, doing what: String) -> StorageError {
        let poisoned = StorageError(
            .poisoned, "\(what) failed, so the store refuses writes until it is reopened: \(error.message)",
            file: error.file, errno: error.errno)
        state.poisoned = poisoned
        return poisoned
    }
}
