// Reading the segments at open: each sealed one through its hint file (or a scan, after which
// the hint is written again), the active one by a scan with the torn-tail rule
// (docs/durability.md, "Open and recovery"; docs/format/segment.md and hint.md).

extension StoreOpener {
    mutating func loadSealed(_ sealed: SealedSegment) throws(StorageError) -> SegmentFile {
        let name = FileNames.name(.segment, sealed.number)
        let handle: any FileHandle
        do throws(StorageError) {
            handle = try fileSystem.openFile(path(name), mode: .readOnly)
        } catch  where error.code == .notFound {
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
                sealed: cipher != nil, file: path(name))
        }
        let file = SegmentFile(number: sealed.number, path: path(name), handle: handle, cipher: cipher, firstRecordOffset: firstRecord)
        usage[sealed.number, default: SegmentUsage(total: 0, dead: 0)].total += size
        file.seal(length: size)
        let subject = HintSubject(
            segmentNumber: sealed.number, segmentLength: sealed.length, firstRecordOffset: firstRecord,
            identity: identity, allowsLegacy: sealed.number < legacyBelow, recordExtraBytes: file.records.extraBytes)
        if loadHints(subject) { return file }
        let bytes = try handle.read(count: size, at: 0)
        report.segmentBytesRead += bytes.count
        let scan = try bytes.withBytes { (raw) throws(StorageError) in
            try SegmentScanner.scan(
                raw, file: path(name), fileNumber: sealed.number, identity: identity,
                allowsLegacy: sealed.number < legacyBelow, sealedLength: Int(sealed.length), cipher: cipher)
        }
        var hints = EncodedHints()
        for record in scan.records {
            let header = record.header
            record.key.withUnsafeBytes { key in
                collect(key, tag: header.tag, segment: sealed.number, offset: record.offset, length: record.length, sequence: header.sequence)
            }
            hints.append(
                tag: header.tag, flags: header.flags, key: record.key, offset: record.offset,
                recordLength: record.length, sequence: header.sequence, originalLength: header.originalLength)
        }
        rewriteHints(hints, subject)
        return file
    }

    /// Collects the records of `subject`'s segment from its hint file, and returns whether it
    /// could; on `false` (no hint file, or one that does not verify or is another store's)
    /// nothing was collected and the caller scans the segment.
    mutating func loadHints(_ subject: HintSubject) -> Bool {
        let name = FileNames.name(.hint, subject.segmentNumber)
        guard fileSystem.fileExists(path(name)) else { return false }
        // What was collected before this file, to undo a file that fails its later checks.
        let runCount = ascendingRun.count
        let deferredCount = deferred.count
        let sequenceBefore = highestSequence
        do throws(StorageError) {
            let bytes = try readWhole(name, kind: .hint, number: subject.segmentNumber)
            report.segmentBytesRead += bytes.count
            // At most one entry per 25 bytes (24 fixed, a key of 1 or more); keys fit in the file.
            ascendingRun.reserveCapacity(
                keys: runCount + bytes.count / (HintFormat.entryFixedSize + 1), bytes: ascendingRun.byteCount + bytes.count)
            try bytes.withBytes { (raw) throws(StorageError) in
                try HintFormat.forEachEntry(raw, subject, file: path(name)) { entry, key in
                    collect(
                        key, tag: entry.tag, segment: subject.segmentNumber, offset: entry.offset, length: entry.recordLength,
                        sequence: entry.sequence)
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
    mutating func rewriteHints(_ entries: EncodedHints, _ subject: HintSubject) {
        guard subject.identity != nil, !options.readOnly else { return }
        let final = path(FileNames.name(.hint, subject.segmentNumber))
        do throws(StorageError) {
            let bytes = cipher.sealed(try HintFormat.checkedFile(subject, entries: entries), kind: .hint, number: subject.segmentNumber)
            try DurableReplacement.writeFile(bytes, to: final, directory: directory, syncDirectory: false, fileSystem: fileSystem)
            report.rewrittenHints.append(final)
        } catch {
            // The next open scans the segment again.
        }
    }

    /// Loads the active segment by a scan. `dictionaries` are the ids the manifest lists: a
    /// read-only open that finds a record naming another one has been overtaken by a writer
    /// that added a dictionary after the manifest was read, and fails with `corruption` so
    /// that it starts again (docs/durability.md, "Read-only opens").
    mutating func loadActive(
        _ number: UInt64, dictionaries: Set<UInt16>
    ) throws(StorageError) -> (SegmentFile, Int, EncodedHints, minSequence: UInt64?, maxSequence: UInt64) {
        let name = FileNames.name(.segment, number)
        let handle: any FileHandle
        do throws(StorageError) {
            handle = try fileSystem.openFile(path(name), mode: options.readOnly ? .readOnly : .readWrite)
        } catch  where error.code == .notFound {
            throw .corruption("The active segment named by the manifest is missing.", file: path(name))
        }
        let bytes = try handle.read(count: try handle.size(), at: 0)
        report.segmentBytesRead += bytes.count
        let scan = try bytes.withBytes { (raw) throws(StorageError) in
            try SegmentScanner.scan(
                raw, file: path(name), fileNumber: number, identity: identity, allowsLegacy: number < legacyBelow,
                sealedLength: nil, cipher: cipher)
        }
        let file = SegmentFile(number: number, path: path(name), handle: handle, cipher: cipher, firstRecordOffset: scan.headerSize)
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
            if options.readOnly, header.dictionaryID != 0, !dictionaries.contains(header.dictionaryID) {
                throw .corruption(
                    "A record names dictionary \(header.dictionaryID), which the manifest does not list.",
                    file: path(name), offset: record.offset)
            }
            record.key.withUnsafeBytes { key in
                collect(key, tag: header.tag, segment: number, offset: record.offset, length: record.length, sequence: header.sequence)
            }
            hints.append(
                tag: header.tag, flags: header.flags, key: record.key, offset: record.offset,
                recordLength: record.length, sequence: header.sequence, originalLength: header.originalLength)
            minSequence = min(minSequence ?? header.sequence, header.sequence)
            maxSequence = max(maxSequence, header.sequence)
        }
        return (file, scan.validEnd, hints, minSequence, maxSequence)
    }
}
