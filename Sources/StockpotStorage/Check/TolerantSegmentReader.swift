// A segment reader that never gives up: every valid record of a damaged segment, and every
// damaged byte range between them (docs/format/segment.md, "Salvage and verify"). Used by
// `stockpot verify` (to name all damage, not the first) and `stockpot salvage`.

import StockpotCore

/// What a tolerant scan of one segment file found.
package struct TolerantSegmentScan: Sendable {
    /// A record that verifies: its header, where it starts, its length in the file, its key
    /// and stored value.
    package struct Record: Sendable {
        package var header: RecordHeader
        package var offset: Int
        package var length: Int
        package var key: [UInt8]
        package var stored: [UInt8]
    }

    /// Bytes that are not valid records.
    package struct Damage: Sendable {
        /// Where the damage starts and how many bytes it covers.
        package var offset: Int
        package var length: Int
        /// Why the first bad record did not verify.
        package var reason: String
        /// The key the damaged record's header claims, when its lengths are plausible: an
        /// unverified hint of what was lost.
        package var claimedKey: [UInt8]?
    }

    /// Valid records in file order (records of a batch cut short by the end of the file
    /// excluded: they were never committed).
    package var records: [Record] = []
    /// Damaged ranges in file order.
    package var damage: [Damage] = []
    /// Records dropped because their batch never ended before the end of the file.
    package var unfinishedBatchRecords = 0
    /// Why the file header does not verify, when it does not.
    package var headerProblem: String?
    /// Whether the header verifies but names another store's identity: the records are that
    /// store's, not this one's.
    package var foreign = false
}

/// Scans segment bytes record by record, resynchronizing after damage at the next offset where
/// a record verifies (its checksum makes a false match about 2^-64 likely). Stateless.
package enum TolerantSegmentReader {
    /// Scans a whole segment file's bytes. Never throws and never traps, whatever the bytes.
    ///
    /// - Parameters:
    ///   - fileNumber: the number in the file's name, to check the header against.
    ///   - identity: the store's identity, when known, to check the header against.
    ///   - cipher: the store's cipher when it is encrypted: records must authenticate.
    /// - Complexity: O(n) for an intact file; O(n × k) over a damaged range of k bytes.
    package static func scan(
        _ bytes: UnsafeRawBufferPointer, fileNumber: UInt64, identity: StoreIdentity? = nil, file: String,
        cipher: FileCipher? = nil
    ) -> TolerantSegmentScan {
        var result = TolerantSegmentScan()
        let layout = SegmentRecords(cipher: cipher, segment: fileNumber)
        let headerSize = SegmentFormat.announcedHeaderSize(bytes) ?? SegmentFormat.headerSize
        if bytes.count < headerSize {
            result.headerProblem = "The file is \(bytes.count) bytes, shorter than a segment header."
            if !bytes.isEmpty {
                result.damage.append(.init(offset: 0, length: bytes.count, reason: "a truncated header", claimedKey: nil))
            }
            return result
        }
        let header = UnsafeRawBufferPointer(rebasing: bytes[0..<headerSize])
        do throws(StorageError) {
            try SegmentFormat.verifyHeader(
                header, fileNumber: fileNumber, identity: identity, allowsLegacy: true, sealed: cipher != nil, file: file)
        } catch {
            result.headerProblem = error.message
            // A header that verifies without the identity check is another store's.
            result.foreign =
                identity != nil
                && (try? SegmentFormat.verifyHeader(
                    header, fileNumber: fileNumber, identity: nil, allowsLegacy: true, sealed: cipher != nil, file: file)) != nil
        }
        var pendingBatch: [TolerantSegmentScan.Record] = []
        var offset = headerSize
        while offset < bytes.count {
            var record: TolerantSegmentScan.Record?
            let decoded =
                (try? layout.decode(bytes, at: offset) { header, key, stored throws(StorageError) in
                    record = .init(header: header, offset: offset, length: 0, key: Array(key), stored: Array(stored))
                }) ?? .invalid("unreadable")
            if case .record(let length) = decoded, var record {
                record.length = length
                pendingBatch.append(record)
                if record.header.flags.contains(.batchEnd) {
                    result.records += pendingBatch
                    pendingBatch.removeAll()
                }
                offset += length
                continue
            }
            if bytes[offset...].allSatisfy({ $0 == 0 }) { break }  // the zero tail of an active segment
            // Damage: records read so far belong to batches whose end may be lost; keep them
            // (their checksums verify) rather than lose more than the damage itself.
            result.records += pendingBatch
            pendingBatch.removeAll()
            let next = layout.nextValidRecord(bytes, after: offset)
            let end = next ?? bytes.count
            result.damage.append(
                .init(
                    offset: offset, length: end - offset, reason: reason(decoded),
                    claimedKey: cipher == nil ? claimedKey(bytes, at: offset) : nil))
            offset = end
        }
        result.unfinishedBatchRecords = pendingBatch.count
        return result
    }

    private static func reason(_ decoded: SegmentRecords.Found) -> String {
        switch decoded {
        case .record: "a valid record"
        case .zeroLength: "a zero frame length followed by non-zero bytes"
        case .incomplete: "a record cut short by the end of the file"
        case .invalid(let why): why
        }
    }

    /// The key a damaged record's header claims, when its key length fits the file.
    private static func claimedKey(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> [UInt8]? {
        guard let keyLength = bytes.getUInt32LE(at: offset + 16).map(Int.init),
            (1...RecordCodec.maximumKeyLength).contains(keyLength),
            offset + RecordCodec.fieldsSize + keyLength <= bytes.count
        else { return nil }
        let start = offset + RecordCodec.fieldsSize
        return Array(UnsafeRawBufferPointer(rebasing: bytes[start..<start + keyLength]))
    }
}
