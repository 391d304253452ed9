// The file half of `stockpot verify`: the manifest, every segment record's checksum (all of
// them, with every damaged range named), hint files against their segments, dictionaries,
// the snapshot, and every blob a live record refers to. Reads only; changes no file.

import StockpotCore

/// What a file check looked at and what it found wrong.
package struct StorageCheckReport: Sendable {
    /// One line per thing checked, for the report.
    package var checked: [String] = []
    /// One sentence per problem, naming the file and offset.
    package var problems: [String] = []
}

/// Checks a closed store's files. Stateless.
package enum EngineFileCheck {
    /// Checks every file of the store in `directory` (read with the key `encryption` gives,
    /// when it is encrypted).
    ///
    /// - Throws: `storeLocked` when the store is open; `notFound` when there is no directory;
    ///   `keyRequired`, `wrongKey` or `notEncrypted` as an open would.
    package static func check(directory: String, encryption: StoreEncryption? = nil) throws(StorageError) -> StorageCheckReport {
        let files = try EngineFiles(directory: directory, encryption: encryption)
        var report = StorageCheckReport()
        if let cipher = files.cipher { report.checked.append("encryption: ENCRYPTION opens with the key; store \(cipher.identity)") }
        let manifest: Manifest
        do throws(StorageError) {
            let bytes = try files.read(FileNames.manifest, kind: .manifest, number: 0)
            manifest = try bytes.withBytes { (raw) throws(StorageError) in try Manifest.decode(raw, file: files.path(FileNames.manifest)) }
            report.checked.append(
                "manifest: generation \(manifest.generation), \(manifest.sealedSegments.count + 1) segments, \(manifest.dictionaries.count) dictionaries"
            )
        } catch {
            report.problems.append("The manifest does not verify: \(error)")
            return report
        }

        // Dictionaries first: live compressed values are decoded with them below.
        var dictionaries: [UInt16: LZ4Dictionary] = [:]
        for entry in manifest.dictionaries {
            let name = FileNames.name(.dictionary, entry.fileNumber)
            do throws(StorageError) {
                let bytes = try files.read(name, kind: .dictionary, number: entry.fileNumber)
                let decoded = try bytes.withBytes { (raw) throws(StorageError) in try DictionaryFormat.decode(raw, file: files.path(name)) }
                guard decoded.id == entry.id, decoded.keySpace == entry.keySpace else {
                    throw .corruption("The dictionary file disagrees with the manifest.", file: files.path(name), offset: 12)
                }
                guard manifest.identity == nil || Checksum.xxh3(decoded.content) == entry.contentChecksum else {
                    throw .corruption(
                        "The dictionary's content is not the one the manifest names (a file from another store?).",
                        file: files.path(name), offset: 24)
                }
                dictionaries[decoded.id] = LZ4Dictionary(decoded.content)
            } catch {
                report.problems.append("Dictionary \(entry.id): \(error)")
            }
        }
        if !manifest.dictionaries.isEmpty {
            report.checked.append("dictionaries: \(manifest.dictionaries.count) files")
        }

        var segments: [(file: String, bytes: [UInt8])] = []
        var newest: [[UInt8]: (segment: Int, record: TolerantSegmentScan.Record)] = [:]
        var recordCount = 0
        var byteCount = 0
        let sealedLengths = Dictionary(manifest.sealedSegments.map { ($0.number, Int($0.length)) }) { first, _ in first }
        for number in manifest.sealedSegments.map(\.number) + [manifest.activeSegment] {
            let name = FileNames.name(.segment, number)
            let path = files.path(name)
            let bytes: [UInt8]
            do throws(StorageError) {
                bytes = try files.read(name)
            } catch {
                report.problems.append("Segment \(path) cannot be read: \(error.message)")
                continue
            }
            byteCount += bytes.count
            if let length = sealedLengths[number], length != bytes.count {
                report.problems.append("Segment \(path) is \(bytes.count) bytes; the manifest says \(length) (truncated or extended).")
            }
            let scan = bytes.withUnsafeBytes {
                TolerantSegmentReader.scan($0, fileNumber: number, identity: manifest.identity, file: path, cipher: files.cipher)
            }
            if let problem = scan.headerProblem { report.problems.append("Segment \(path): the header does not verify: \(problem)") }
            if scan.headerProblem == nil, manifest.identity != nil, !manifest.allowsLegacy(number),
                bytes.withUnsafeBytes({ SegmentFormat.announcedHeaderSize($0) }) != SegmentFormat.headerSize
            {
                report.problems.append("Segment \(path) has a version-1 header, which only segments of an upgraded store may have.")
            }
            if number == manifest.activeSegment, let binding = manifest.snapshotBinding, binding.logSegment == number,
                let lastRecord = scan.records.last, UInt64(lastRecord.offset + lastRecord.length) < binding.logOffset
            {
                report.problems.append(
                    "Segment \(path) ends at byte \(lastRecord.offset + lastRecord.length), before byte \(binding.logOffset) that the snapshot covers: "
                        + "entries were lost after the snapshot was taken (the next open rebuilds the indexes from the log).")
            }
            for damage in scan.damage {
                report.problems.append(
                    "Segment \(path) at byte \(damage.offset): \(damage.length) bytes do not verify (\(damage.reason)).")
            }
            if scan.unfinishedBatchRecords > 0 {
                report.problems.append(
                    "Segment \(path) ends inside a batch (\(scan.unfinishedBatchRecords) records of an unfinished write; the next open cuts them).")
            }
            recordCount += scan.records.count
            if let length = sealedLengths[number] {
                let subject = HintSubject(
                    segmentNumber: number, segmentLength: UInt64(length),
                    firstRecordOffset: bytes.withUnsafeBytes { SegmentFormat.announcedHeaderSize($0) } ?? SegmentFormat.headerSize,
                    identity: manifest.identity, allowsLegacy: manifest.allowsLegacy(number),
                    recordExtraBytes: files.records(ofSegment: number).extraBytes)
                checkHints(subject, scan, files, &report)
            }
            let index = segments.count
            segments.append((path, bytes))
            for record in scan.records {
                if let known = newest[record.key], known.record.header.sequence >= record.header.sequence { continue }
                newest[record.key] = (index, record)
            }
        }
        report.checked.append("segments: \(segments.count) files, \(byteCount) bytes, \(recordCount) record checksums")

        var blobs = 0
        var values = 0
        for (_, found) in newest where found.record.header.tag != .delete {
            let segment = segments[found.segment]
            if found.record.header.tag == .putBlob { blobs += 1 }
            guard found.record.header.tag == .putBlob || found.record.header.flags.contains(.compressed) else { continue }
            values += 1
            do throws(StorageError) {
                _ = try files.value(of: found.record, file: segment.file, dictionaries: dictionaries)
            } catch {
                report.problems.append("The live record at byte \(found.record.offset) of \(segment.file): \(error)")
            }
        }
        report.checked.append("live values: \(newest.count) keys, \(values) compressed or blob values decoded, \(blobs) blob references checked")

        if manifest.snapshot != 0 {
            let name = FileNames.name(.snapshot, manifest.snapshot)
            do throws(StorageError) {
                let bytes = try files.read(name, kind: .snapshot, number: manifest.snapshot)
                let snapshot = try bytes.withBytes { (raw) throws(StorageError) in try SnapshotFile.decode(raw, file: files.path(name)) }
                if let binding = manifest.snapshotBinding,
                    binding.checksum != SnapshotFile.trailerChecksum(of: bytes) || binding.coveredSequence != snapshot.coveredSequence
                {
                    throw .corruption(
                        "The snapshot is not the one the manifest names (a file from another store, or an older one).",
                        file: files.path(name), offset: bytes.count - 8)
                }
                report.checked.append("snapshot: \(name)")
            } catch {
                report.problems.append("The snapshot \(files.path(name)) does not verify: \(error)")
            }
        }
        return report
    }

    /// Compares a sealed segment's hint file, when it has one, with the records scanned.
    private static func checkHints(_ subject: HintSubject, _ scan: TolerantSegmentScan, _ files: EngineFiles, _ report: inout StorageCheckReport) {
        let name = FileNames.name(.hint, subject.segmentNumber)
        guard files.names.contains(name) else { return }
        do throws(StorageError) {
            let bytes = try files.read(name, kind: .hint, number: subject.segmentNumber)
            let hints = try bytes.withBytes { (raw) throws(StorageError) in
                try HintFormat.decode(raw, subject, file: files.path(name))
            }
            let agrees =
                hints.count == scan.records.count
                && zip(hints, scan.records).allSatisfy { hint, record in
                    hint.offset == record.offset && hint.key == record.key && hint.sequence == record.header.sequence
                        && hint.tag == record.header.tag
                }
            if !agrees {
                report.problems.append("The hint file \(files.path(name)) disagrees with its segment (the next open scans the segment instead).")
            }
        } catch {
            report.problems.append("The hint file \(files.path(name)) does not verify: \(error) (the next open scans its segment instead).")
        }
    }
}
