// The file-system seam: every byte the storage engine reads or writes goes through these
// protocols, so tests can swap in an in-memory or fault-injecting implementation.

/// How ``FileSystem/openFile(_:mode:)`` opens a file.
package enum FileOpenMode: Sendable {
    /// Existing file, reads only.
    case readOnly
    /// Existing file, reads and writes.
    case readWrite
    /// A new file; fails with `ioError` (EEXIST) when the name exists.
    case createNew
    /// Creates the file or truncates an existing one to zero bytes.
    case createOrTruncate
}

/// A directory tree of files, addressed by absolute or relative paths with `/` separators.
///
/// Implementations are thread-safe. Every failure is a ``StorageError`` (`ioError` with the
/// errno, `notFound`, or `storeLocked` from ``lockFile(_:)``); nothing traps.
package protocol FileSystem: Sendable {
    /// Opens `path` as `mode` says.
    func openFile(_ path: String, mode: FileOpenMode) throws(StorageError) -> any FileHandle
    /// Renames `source` to `destination`, replacing it atomically if it exists.
    func rename(_ source: String, to destination: String) throws(StorageError)
    /// Removes the file `path`; `notFound` when there is none.
    func removeFile(_ path: String) throws(StorageError)
    /// Removes the empty directory `path`; an error when it is missing or not empty.
    func removeDirectory(_ path: String) throws(StorageError)
    /// The names (not paths) of the entries of directory `path`, in no particular order.
    func listDirectory(_ path: String) throws(StorageError) -> [String]
    /// Creates directory `path` and any missing parents; succeeds when it exists.
    func createDirectory(_ path: String) throws(StorageError)
    /// Makes the creations, renames and removals in directory `path` durable (fsync on the
    /// directory).
    func syncDirectory(_ path: String) throws(StorageError)
    /// Whether a file or directory exists at `path`.
    func fileExists(_ path: String) -> Bool
    /// Takes an exclusive lock on the directory `path` itself (which must exist) without
    /// waiting; `storeLocked` when another holder has it. The lock lasts until the returned
    /// lock is released. Locking the directory, not a file in it, means the lock cannot be
    /// defeated by deleting or replacing a file, and needs no write access
    /// (docs/durability.md, "The lock").
    func lockDirectory(_ path: String) throws(StorageError) -> any FileLock
    /// Swaps the names `first` and `second` (both exist) in one atomic step: a crash leaves
    /// both under their old names or both under the new ones, once the parent is synced.
    /// `ioError` (ENOSYS, EINVAL) where the file system cannot.
    func exchange(_ first: String, _ second: String) throws(StorageError)
}

extension FileSystem {
    /// File systems without an atomic exchange refuse it.
    package func exchange(_ first: String, _ second: String) throws(StorageError) {
        throw StorageError(.ioError, "This file system cannot exchange \(first) and \(second) atomically.", file: first)
    }
}

/// An open file. Positioned reads and writes only; there is no file offset to share.
/// Thread-safe: reads may run concurrently with each other and with writes to other ranges.
package protocol FileHandle: AnyObject, Sendable {
    /// The path it was opened with.
    var path: String { get }
    /// The file's current size in bytes.
    func size() throws(StorageError) -> Int
    /// Reads up to `buffer.count` bytes at `offset`; returns how many were read (fewer only at
    /// the end of the file).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(StorageError) -> Int
    /// Writes all of `bytes` at `offset`, extending the file as needed; a short write is
    /// retried until complete or failed.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(StorageError)
    /// Makes the file's data and metadata durable (fsync).
    func sync() throws(StorageError)
    /// Makes the file's data durable with the metadata needed to read it back (size,
    /// allocation) but not timestamps (fdatasync): the commit's sync, cheaper when a write
    /// changed neither the size nor the allocation.
    func syncData() throws(StorageError)
    /// Asks the system to start writing the `count` bytes at `offset` to the device now, so
    /// that the next sync waits for less. A hint: it makes nothing durable and reports no
    /// error (a failure shows at the sync).
    func startWriteback(offset: Int, count: Int)
    /// Makes the file at least `size` bytes long with the space allocated (the new bytes read
    /// as zero), so that writes inside it change no metadata; a file already that long is left
    /// alone. Durable at the next sync. On a file system that cannot allocate ahead it may
    /// write zeros or fail; callers treat it as a hint.
    func preallocate(size: Int) throws(StorageError)
    /// Sets the file's size, cutting or zero-extending it.
    func truncate(to size: Int) throws(StorageError)
    /// Closes the file. Further calls fail with `ioError` (EBADF). Idempotent.
    func close()
    /// The first `count` bytes mapped read-only, or nil when this file system does not map
    /// (callers then read with `read(into:at:)`). Only for files that no longer change.
    func mapReadOnly(count: Int) -> MappedRegion?
}

/// A held exclusive lock on a file.
package protocol FileLock: AnyObject, Sendable {
    /// Releases the lock. Idempotent.
    func release()
}

extension FileHandle {
    /// No mapping: the in-memory and fault-injecting file systems read through `read(into:at:)`.
    package func mapReadOnly(count: Int) -> MappedRegion? { nil }

    /// Reads `count` bytes at `offset` into a new array (shorter only at the end of the file).
    package func read(count: Int, at offset: Int) throws(StorageError) -> [UInt8] {
        // The buffer is not zero-filled first: only the bytes the read delivers count as
        // initialized (a snapshot or hint file is megabytes, read once at every open).
        var failure: StorageError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(StorageError) {
                let got = try read(into: UnsafeMutableRawBufferPointer(buffer), at: offset)
                initialized = min(max(got, 0), count)
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Writes the array `bytes` at `offset`.
    package func write(_ bytes: [UInt8], at offset: Int) throws(StorageError) {
        let result: Result<Void, StorageError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(StorageError) in try write(buffer, at: offset) }
        }
        try result.get()
    }
}
