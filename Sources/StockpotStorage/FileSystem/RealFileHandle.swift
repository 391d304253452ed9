// An open POSIX file: positioned reads and writes (pread/pwrite loops that retry EINTR and
// continue short transfers), fsync, ftruncate and fstat, each wrapped once.
#if canImport(Glibc)
    import Glibc
#endif
import CFileHints
import Synchronization

/// A file opened by ``RealFileSystem``.
///
/// Thread-safe: reads and writes may run concurrently (they carry their own offsets).
/// `close` must not race with other calls on the same handle (the descriptor number could be
/// reused); after `close` every call fails with `ioError` (EBADF).
package final class RealFileHandle: FileHandle {
    /// The path it was opened with.
    package let path: String
    private let descriptor: Atomic<Int32>
    private let writable: Bool

    init(path: String, descriptor: Int32, writable: Bool) {
        self.path = path
        self.descriptor = Atomic(descriptor)
        self.writable = writable
    }

    deinit { close() }

    /// The open descriptor, or -1 once closed; for tests and diagnostics.
    package var fileDescriptor: Int32 { descriptor.load(ordering: .acquiring) }

    private func openDescriptor(_ operation: String) throws(StorageError) -> Int32 {
        let fd = fileDescriptor
        if fd < 0 { throw .systemCall(operation, path: path, errno: EBADF) }
        return fd
    }

    /// The size from `fstat(2)`.
    package func size() throws(StorageError) -> Int {
        let fd = try openDescriptor("stat")
        var info = stat()
        if fstat(fd, &info) != 0 { throw .systemCall("stat", path: path, errno: Glibc.errno) }
        return Int(info.st_size)
    }

    /// `mmap(2)` of the first `count` bytes, read-only and shared; nil when it fails (the
    /// caller reads with `pread` instead) or when `count` is 0.
    package func mapReadOnly(count: Int) -> MappedRegion? {
        guard count > 0, let fd = try? openDescriptor("map") else { return nil }
        guard let base = mmap(nil, count, PROT_READ, MAP_SHARED, fd, 0), base != MAP_FAILED else { return nil }
        return MappedRegion(bytes: UnsafeRawBufferPointer(start: base, count: count))
    }

    /// `pread(2)` until `buffer` is full or the file ends.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(StorageError)
        -> Int
    {
        let fd = try openDescriptor("read")
        var done = 0
        while done < buffer.count {
            let got = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if got > 0 {
                done += got
            } else if got == 0 {
                break
            } else if Glibc.errno != EINTR {
                throw StorageError.systemCall(
                    "read at byte \(offset + done) of", path: path, errno: Glibc.errno)
            }
        }
        return done
    }

    /// `pwrite(2)` until every byte is written; short writes continue, EINTR retries.
    package func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(StorageError) {
        let fd = try openDescriptor("write to")
        var done = 0
        while done < bytes.count {
            let put = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if put > 0 {
                done += put
            } else if put == 0 {
                // A regular file never accepts zero bytes without an error; do not spin.
                throw StorageError.systemCall(
                    "write at byte \(offset + done) of", path: path, errno: EIO)
            } else if Glibc.errno != EINTR {
                throw StorageError.systemCall(
                    "write at byte \(offset + done) of", path: path, errno: Glibc.errno)
            }
        }
    }

    /// `fsync(2)`; retried only on EINTR (after any other failure the content is unknown).
    package func sync() throws(StorageError) {
        let fd = try openDescriptor("fsync")
        while fsync(fd) != 0 {
            if Glibc.errno != EINTR { throw .systemCall("fsync", path: path, errno: Glibc.errno) }
        }
    }

    /// `fdatasync(2)`; retried only on EINTR, as ``sync()``.
    package func syncData() throws(StorageError) {
        let fd = try openDescriptor("fdatasync")
        while fdatasync(fd) != 0 {
            if Glibc.errno != EINTR { throw .systemCall("fdatasync", path: path, errno: Glibc.errno) }
        }
    }

    /// `sync_file_range(2)` with `SYNC_FILE_RANGE_WRITE` (Linux; nothing elsewhere): starts
    /// the range's writeback without waiting. Errors are left to the sync that follows.
    package func startWriteback(offset: Int, count: Int) {
        let fd = fileDescriptor
        guard fd >= 0, count > 0 else { return }
        _ = stockpot_start_writeback(fd, Int64(offset), Int64(count))
    }

    /// `posix_fallocate(3)` of bytes `0..<size` (it never shrinks the file). Glibc falls back
    /// to writing zeros where the file system cannot allocate ahead.
    package func preallocate(size: Int) throws(StorageError) {
        let fd = try openDescriptor("preallocate")
        if !writable { throw .systemCall("preallocate", path: path, errno: EBADF) }
        var result = posix_fallocate(fd, 0, off_t(size))
        while result == EINTR { result = posix_fallocate(fd, 0, off_t(size)) }
        if result != 0 { throw .systemCall("preallocate \(size) bytes of", path: path, errno: result) }
    }

    /// `ftruncate(2)` to `size` bytes.
    package func truncate(to size: Int) throws(StorageError) {
        let fd = try openDescriptor("truncate")
        // ftruncate on a read-only descriptor reports EINVAL; say EBADF, as a write would.
        if !writable { throw .systemCall("truncate", path: path, errno: EBADF) }
        while ftruncate(fd, off_t(size)) != 0 {
            if Glibc.errno != EINTR {
                throw .systemCall("truncate to \(size) bytes", path: path, errno: Glibc.errno)
            }
        }
    }

    /// `close(2)`, once; never retried (on Linux the descriptor is gone even on EINTR).
    package func close() {
        let fd = descriptor.exchange(-1, ordering: .acquiringAndReleasing)
        if fd >= 0 { _ = Glibc.close(fd) }
    }
}
