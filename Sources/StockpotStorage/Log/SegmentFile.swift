// An open segment file shared by every read view that can see it. The file stays open (and,
// on POSIX, readable after compaction unlinks it) until the last view holding it is gone.
// Once sealed, it is mapped read-only and point reads verify records in place.

import Synchronization

/// An open segment: its number, path and handle. Reads are positioned, so any number of
/// threads may read at once.
final class SegmentFile: Sendable {
    let number: UInt64
    let path: String
    let handle: any FileHandle
    /// Where the first record starts: the header's size (48, or 32 in a version-1 segment).
    let firstRecordOffset: Int
    /// How its records are laid out: plain, or sealed under the store's cipher.
    let records: SegmentRecords
    /// The sealed file's bytes, mapped; nil while active or when the file system does not map.
    private let mapping = Mutex<MappedRegion?>(nil)

    init(
        number: UInt64, path: String, handle: any FileHandle, cipher: FileCipher?,
        firstRecordOffset: Int = SegmentFormat.headerSize
    ) {
        self.number = number
        self.records = SegmentRecords(cipher: cipher, segment: number)
        self.path = path
        self.handle = handle
        self.firstRecordOffset = firstRecordOffset
    }

    deinit {
        handle.close()
    }

    /// Maps the segment, whose `length` bytes will not change any more, for reads without a
    /// system call. Without a mapping reads go through `pread`; nothing else differs.
    func seal(length: Int) {
        let region = handle.mapReadOnly(count: length)
        mapping.withLock { $0 = region }
    }

    /// The sealed segment's mapping, or nil while active or when the file system does not map.
    var mappedRegion: MappedRegion? { mapping.withLock { $0 } }

    /// ``withRecord(at:length:_:)`` on `region`, this segment's mapping taken earlier (a reader
    /// that keeps it saves the lock and the reference count of each read).
    func withRecord<R>(
        at offset: Int, length: Int, in region: MappedRegion,
        _ body: (RecordHeader, _ key: UnsafeRawBufferPointer, _ stored: UnsafeRawBufferPointer) throws(StorageError) -> R
    ) throws(StorageError) -> R {
        guard offset >= 0, length >= 0, offset <= region.bytes.count - length else {
            throw .corruption("A record ends past the end of its segment.", file: path, offset: offset)
        }
        return try verified(UnsafeRawBufferPointer(rebasing: region.bytes[offset..<offset + length]), offset, body)
    }

    /// Reads and verifies the record at `offset` of `length` bytes; returns its header and the
    /// key and stored value bytes. Any mismatch is `corruption` naming this file and offset.
    func readRecord(at offset: Int, length: Int) throws(StorageError) -> (RecordHeader, key: [UInt8], storedValue: [UInt8]) {
        try withRecord(at: offset, length: length) { header, key, stored in
            (header, Array(key), Array(stored))
        }
    }

    /// Verifies the record at `offset` of `length` bytes and hands `body` its header, key and
    /// stored value, in place (in the mapping, or in a buffer read with `pread`). The buffers
    /// are valid only inside `body`.
    func withRecord<R>(
        at offset: Int, length: Int,
        _ body: (RecordHeader, _ key: UnsafeRawBufferPointer, _ stored: UnsafeRawBufferPointer) throws(StorageError) -> R
    ) throws(StorageError) -> R {
        if let region = mapping.withLock({ $0 }) {
            guard offset >= 0, length >= 0, offset <= region.bytes.count - length else {
                throw .corruption("A record ends past the end of its segment.", file: path, offset: offset)
            }
            return try withExtendedLifetime(region) { () throws(StorageError) -> R in
                try verified(UnsafeRawBufferPointer(rebasing: region.bytes[offset..<offset + length]), offset, body)
            }
        }
        let bytes = try handle.read(count: length, at: offset)
        guard bytes.count == length else {
            throw .corruption("A record ends past the end of its segment.", file: path, offset: offset)
        }
        return try bytes.withBytes { (raw) throws(StorageError) -> R in try verified(raw, offset, body) }
    }

    /// Decodes `bytes`, exactly one record that starts at `offset` of the segment, and hands
    /// it to `body`.
    private func verified<R>(
        _ bytes: UnsafeRawBufferPointer, _ offset: Int,
        _ body: (RecordHeader, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws(StorageError) -> R
    ) throws(StorageError) -> R {
        var result: R?
        let found = try records.decode(bytes, at: 0, segmentOffset: offset) { (header, key, stored) throws(StorageError) in
            result = try body(header, key, stored)
        }
        guard case .record(let length) = found, length == bytes.count, let result else {
            throw .corruption("A record does not verify (\(found)).", file: path, offset: offset)
        }
        return result
    }
}
