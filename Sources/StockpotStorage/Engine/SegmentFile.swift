// An open segment file shared by every read view that can see it. The file stays open (and,
// on POSIX, readable after compaction unlinks it) until the last view holding it is gone.

/// An open segment: its number, path and handle. Reads are positioned, so any number of
/// threads may read at once.
final class SegmentFile: Sendable {
    let number: UInt64
    let path: String
    let handle: any FileHandle

    init(number: UInt64, path: String, handle: any FileHandle) {
        self.number = number
        self.path = path
        self.handle = handle
    }

    deinit {
        handle.close()
    }

    /// Reads and verifies the record at `offset` of `length` bytes; returns its header and the
    /// key and stored value bytes. Any mismatch is `corruption` naming this file and offset.
    func readRecord(at offset: Int, length: Int) throws(StorageError) -> (RecordHeader, key: [UInt8], storedValue: [UInt8]) {
        let bytes = try handle.read(count: length, at: offset)
        guard bytes.count == length else {
            throw .corruption("A record ends past the end of its segment.", file: path, offset: offset)
        }
        let decoded = bytes.withUnsafeBytes { RecordCodec.decode($0, at: 0) }
        guard case .record(let header, let keyOffset, let valueOffset) = decoded,
            header.recordLength == length
        else {
            throw .corruption("A record does not verify (\(decoded)).", file: path, offset: offset)
        }
        return (
            header, Array(bytes[keyOffset..<keyOffset + header.keyLength]),
            Array(bytes[valueOffset..<valueOffset + header.storedLength])
        )
    }
}
