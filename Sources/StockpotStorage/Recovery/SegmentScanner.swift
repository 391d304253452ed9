// Reading a whole segment at open: every record with its offset, the end of the last complete
// batch, and the torn-tail rule of docs/format/segment.md ("Reading, corruption and recovery").

/// A record found by a scan.
package struct ScannedRecord: Sendable {
    package var header: RecordHeader
    package var offset: Int
    /// The record's length in the segment (its plain length, plus 44 when sealed).
    package var length: Int
    package var key: [UInt8]
}

/// What a scan of one segment found.
package struct SegmentScan: Sendable {
    /// Records of complete batches, in file order.
    package var records: [ScannedRecord]
    /// The header's size: where the first record starts.
    package var headerSize: Int
    /// The end of the last complete batch: where the next record goes.
    package var validEnd: Int
    /// Where the unusable tail started and how many bytes it had, when the file had one.
    package var tornTail: (offset: Int, bytes: Int)?
}

package enum SegmentScanner {
    /// Scans the bytes of segment `file`, whose header must name `fileNumber` and the store
    /// `identity` (or be a version-1 header, when `allowsLegacy`). A sealed segment
    /// (`sealedLength` given) must hold exactly complete batches up to that length; an active
    /// one may end in a torn tail. With `cipher` (an encrypted store) every record must be
    /// sealed and authenticate.
    ///
    /// - Throws: `corruption` naming the file and offset of the first bad byte that cannot be
    ///   a torn tail, or of the header's bad field.
    package static func scan(
        _ bytes: UnsafeRawBufferPointer, file: String, fileNumber: UInt64, identity: StoreIdentity?,
        allowsLegacy: Bool, sealedLength: Int?, cipher: FileCipher? = nil
    ) throws(StorageError) -> SegmentScan {
        let layout = SegmentRecords(cipher: cipher, segment: fileNumber)
        let headerSize = try SegmentFormat.verifyHeader(
            bytes, fileNumber: fileNumber, identity: identity, allowsLegacy: allowsLegacy, sealed: cipher != nil, file: file)
        if let sealedLength, sealedLength != bytes.count {
            throw .corruption(
                "The sealed segment is \(bytes.count) bytes; the manifest says \(sealedLength).",
                file: file, offset: min(sealedLength, bytes.count))
        }
        var records: [ScannedRecord] = []
        var completeCount = 0
        var validEnd = headerSize
        var offset = headerSize
        while offset < bytes.count {
            var found: (header: RecordHeader, key: [UInt8])?
            let decoded = try layout.decode(bytes, at: offset) { header, key, _ throws(StorageError) in
                found = (header, Array(key))
            }
            switch decoded {
            case .record(let length):
                guard let found else { break }
                records.append(ScannedRecord(header: found.header, offset: offset, length: length, key: found.key))
                offset += length
                if found.header.flags.contains(.batchEnd) {
                    completeCount = records.count
                    validEnd = offset
                }
                continue
            case .zeroLength where sealedLength == nil && isAllZero(bytes, from: offset):
                break
            case .zeroLength, .incomplete, .invalid:
                if sealedLength != nil || layout.nextValidRecord(bytes, after: offset) != nil {
                    throw .corruption("A record does not verify.", file: file, offset: offset)
                }
            }
            break
        }
        if let sealedLength, validEnd != sealedLength {
            throw .corruption("The sealed segment ends inside a batch.", file: file, offset: validEnd)
        }
        records.removeSubrange(completeCount...)
        let tail = bytes.count - validEnd
        let zeroTail = tail > 0 && isAllZero(bytes, from: validEnd)
        return SegmentScan(
            records: records, headerSize: headerSize, validEnd: validEnd,
            tornTail: tail > 0 && !zeroTail ? (validEnd, tail) : nil)
    }

    /// Whether every byte from `offset` on is zero (a preallocated tail), eight at a time: a
    /// megabyte of preallocation is checked on every open of an active segment.
    private static func isAllZero(_ bytes: UnsafeRawBufferPointer, from offset: Int) -> Bool {
        var index = offset
        while index + 8 <= bytes.count {
            if bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] != 0 { return false }
            index += 1
        }
        return true
    }

}
