// The POSIX file system: each system call the engine makes is wrapped here (and in
// RealFileHandle.swift) exactly once, retried on EINTR, and turned into a StorageError.
#if canImport(Glibc)
    import Glibc
#endif
import CRenameExchange
import Synchronization

/// The file system of the machine, through POSIX calls.
///
/// Stateless and thread-safe. Files are opened with `O_CLOEXEC`; locks are `flock(2)` locks,
/// which belong to an open file description, so two ``lockFile(_:)`` calls on the same path
/// conflict even within one process. An ENOENT from any call is `notFound`; every other
/// failure is `ioError` with the errno.
package struct RealFileSystem: FileSystem {
    /// Creates the file system.
    package init() {}

    /// Opens `path` as `mode` says; new files get mode 0644.
    package func openFile(_ path: String, mode: FileOpenMode) throws(StorageError) -> any FileHandle {
        let flags: Int32
        let verb: String
        switch mode {
        case .readOnly: (flags, verb) = (O_RDONLY, "open for reading")
        case .readWrite: (flags, verb) = (O_RDWR, "open for writing")
        case .createNew: (flags, verb) = (O_RDWR | O_CREAT | O_EXCL, "create")
        case .createOrTruncate: (flags, verb) = (O_RDWR | O_CREAT | O_TRUNC, "create or truncate")
        }
        let fd = try Self.openDescriptor(path, flags: flags, operation: verb)
        return RealFileHandle(path: path, descriptor: fd, writable: mode != .readOnly)
    }

    /// Renames `source` to `destination` with `rename(2)`.
    package func rename(_ source: String, to destination: String) throws(StorageError) {
        if Glibc.rename(source, destination) != 0 {
            throw .systemCall("rename \(source) to", path: destination, errno: Glibc.errno)
        }
    }

    /// Swaps `first` and `second` with `renameat2(2)` and `RENAME_EXCHANGE`.
    package func exchange(_ first: String, _ second: String) throws(StorageError) {
        if stockpot_rename_exchange(first, second) != 0 {
            throw .systemCall("exchange \(first) with", path: second, errno: Glibc.errno)
        }
    }

    /// Removes the file `path` with `unlink(2)`.
    package func removeFile(_ path: String) throws(StorageError) {
        if unlink(path) != 0 { throw .systemCall("remove", path: path, errno: Glibc.errno) }
    }

    /// `rmdir(2)`.
    package func removeDirectory(_ path: String) throws(StorageError) {
        if rmdir(path) != 0 { throw .systemCall("remove the directory", path: path, errno: Glibc.errno) }
    }

    /// Lists directory `path` with `opendir(3)`/`readdir(3)`, without "." and "..".
    package func listDirectory(_ path: String) throws(StorageError) -> [String] {
        guard let dir = opendir(path) else {
            throw .systemCall("open the directory", path: path, errno: Glibc.errno)
        }
        defer { closedir(dir) }
        var names: [String] = []
        while true {
            Glibc.errno = 0
            guard let entry = readdir(dir) else {
                if Glibc.errno != 0 { throw .systemCall("list", path: path, errno: Glibc.errno) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Creates directory `path` and its missing parents (mode 0755), like `mkdir -p`.
    package func createDirectory(_ path: String) throws(StorageError) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in parts {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
            if mkdir(prefix, 0o755) != 0 && Glibc.errno != EEXIST {
                throw .systemCall("create the directory", path: prefix, errno: Glibc.errno)
            }
        }
        // EEXIST above may have been a file: the last component must be a directory.
        guard let dir = opendir(path) else {
            throw .systemCall("create the directory", path: path, errno: Glibc.errno)
        }
        closedir(dir)
    }

    /// Makes the entries of directory `path` durable: open it, `fsync(2)` it, close it.
    package func syncDirectory(_ path: String) throws(StorageError) {
        let fd = try Self.openDescriptor(
            path, flags: O_RDONLY | O_DIRECTORY, operation: "open the directory")
        defer { _ = Glibc.close(fd) }
        while fsync(fd) != 0 {
            if Glibc.errno != EINTR {
                throw .systemCall("fsync the directory", path: path, errno: Glibc.errno)
            }
        }
    }

    /// Whether anything exists at `path` (`access(2)` with `F_OK`).
    package func fileExists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Opens the directory `path` read-only and takes `flock(LOCK_EX | LOCK_NB)` on it.
    ///
    /// A lock that is busy is tried again for up to ``lockRetryMilliseconds``: a child process
    /// forked by this one between `fork` and `exec` holds a copy of every descriptor (even
    /// `O_CLOEXEC` ones), so a store closed here stays locked for that instant.
    package func lockDirectory(_ path: String) throws(StorageError) -> any FileLock {
        let fd = try Self.openDescriptor(path, flags: O_RDONLY | O_DIRECTORY, operation: "open the store directory to lock it")
        var waited = 0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == EWOULDBLOCK, waited < Self.lockRetryMilliseconds {
                usleep(5_000)
                waited += 5
                continue
            }
            _ = Glibc.close(fd)
            if code == EWOULDBLOCK {
                throw StorageError(
                    .storeLocked, "Another process or open already holds the store \(path).",
                    file: path, errno: code)
            }
            throw .systemCall("lock", path: path, errno: code)
        }
        return RealFileLock(descriptor: fd)
    }

    /// How long a busy lock is tried again before `store_locked`.
    static let lockRetryMilliseconds = 250

    /// `open(2)` with `O_CLOEXEC` added, retried on EINTR.
    static func openDescriptor(_ path: String, flags: Int32, operation: String) throws(StorageError)
        -> Int32
    {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC, 0o644)
            if fd >= 0 { return fd }
            if Glibc.errno != EINTR { throw .systemCall(operation, path: path, errno: Glibc.errno) }
        }
    }
}

/// A held `flock(2)` lock: the open descriptor of the lock file. Releasing closes it.
///
/// Thread-safe: `release` may be called from any thread, any number of times.
final class RealFileLock: FileLock {
    private let descriptor: Atomic<Int32>

    init(descriptor: Int32) { self.descriptor = Atomic(descriptor) }

    deinit { release() }

    func release() {
        let fd = descriptor.exchange(-1, ordering: .acquiringAndReleasing)
        if fd >= 0 { _ = Glibc.close(fd) }
    }
}
