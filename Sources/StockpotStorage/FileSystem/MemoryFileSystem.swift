// An in-memory file system for tests that models durability exactly: what is fsynced (file
// content) and dir-fsynced (names) survives `simulatePowerLoss()`, nothing else does.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// A file system held in memory, with simulated power loss.
///
/// Each file (an inode, which keeps its content across renames) has its current bytes and
/// its bytes as of the last ``FileHandle/sync()``; each directory has its current entries and
/// its entries as of the last ``syncDirectory(_:)``. ``simulatePowerLoss()`` keeps only the
/// durable state, as `docs/durability.md` ("Power loss, as the tests model it") describes.
/// Paths are normalized ("a//b/", "./a/b" and "/a/b" are one path; relative paths start at the
/// root). Errors carry the errno the POSIX call would give.
///
/// Thread-safe: one mutex guards the whole tree, so calls are serialized.
package final class MemoryFileSystem: FileSystem {
    let tree: Mutex<MemoryTree>

    /// Creates an empty file system holding only the root directory.
    package init() { tree = Mutex(MemoryTree()) }

    private init(tree: MemoryTree) { self.tree = Mutex(tree) }

    // MARK: FileSystem

    /// Opens `path` as `mode` says.
    package func openFile(_ path: String, mode: FileOpenMode) throws(StorageError) -> any FileHandle {
        let id = try tree.withLock { tree throws(StorageError) in try tree.open(path, mode: mode) }
        return MemoryFileHandle(path: path, id: id, fileSystem: self)
    }

    /// Renames `source` to `destination`, replacing it; durable after ``syncDirectory(_:)``.
    package func rename(_ source: String, to destination: String) throws(StorageError) {
        try tree.withLock { tree throws(StorageError) in try tree.rename(source, to: destination) }
    }

    /// Removes the file `path`; durable after ``syncDirectory(_:)``.
    package func removeFile(_ path: String) throws(StorageError) {
        try tree.withLock { tree throws(StorageError) in try tree.removeFile(path) }
    }

    /// Removes the empty directory `path`'s entry.
    package func removeDirectory(_ path: String) throws(StorageError) {
        try tree.withLock { tree throws(StorageError) in try tree.removeDirectory(path) }
    }

    /// The current entry names of directory `path`.
    package func listDirectory(_ path: String) throws(StorageError) -> [String] {
        try tree.withLock { tree throws(StorageError) in try tree.listDirectory(path) }
    }

    /// Creates `path` and its missing parents; each new entry is durable after its parent's
    /// ``syncDirectory(_:)``.
    package func createDirectory(_ path: String) throws(StorageError) {
        try tree.withLock { tree throws(StorageError) in try tree.createDirectory(path) }
    }

    /// Makes the current entries of directory `path` its durable entries.
    package func syncDirectory(_ path: String) throws(StorageError) {
        try tree.withLock { tree throws(StorageError) in try tree.syncDirectory(path) }
    }

    /// Whether a file or directory exists at `path` now.
    package func fileExists(_ path: String) -> Bool {
        tree.withLock { tree in tree.node(at: path) != nil }
    }

    /// Takes the exclusive lock on `path` (created if missing); `storeLocked` while held.
    /// Power loss releases every lock.
    package func lockDirectory(_ path: String) throws(StorageError) -> any FileLock {
        let (key, id) = try tree.withLock { tree throws(StorageError) in try tree.lock(path) }
        return MemoryFileLock(key: key, id: id, fileSystem: self)
    }

    // MARK: Test controls

    /// Cuts the power: every directory's entries revert to its durable entries and every
    /// surviving file's bytes to its last-synced bytes (empty if never synced). Open handles
    /// fail with `ioError` (EBADF) from now on and locks are released, as after a reboot.
    package func simulatePowerLoss() {
        tree.withLock { tree in tree.losePower() }
    }

    /// A new file system holding what would survive a power loss now; this one is unchanged
    /// and its handles stay valid.
    package func durableCopy() -> MemoryFileSystem {
        var copy = tree.withLock { tree in tree }
        copy.losePower()
        return MemoryFileSystem(tree: copy)
    }

    /// The current bytes of the file `path`, or `nil` when there is no file there.
    package func fileContents(_ path: String) -> [UInt8]? {
        tree.withLock { tree in
            guard let node = tree.node(at: path) else { return nil }
            return tree.files[node]?.bytes
        }
    }

    /// Replaces the bytes of the file `path` (creating it if missing), durably at once: the
    /// content counts as synced and the name as dir-synced. For tests that flip or cut bytes.
    ///
    /// - Throws: `notFound` when the parent directory is missing; `ioError` (EISDIR) when
    ///   `path` is a directory.
    package func setFileContents(_ path: String, _ bytes: [UInt8]) throws(StorageError) {
        try tree.withLock { tree throws(StorageError) in try tree.setContents(path, bytes) }
    }

    // MARK: Handle and lock support

    /// Runs `body` on the node of open handle `id` under the lock.
    func withOpenFile<R: Sendable>(
        _ id: Int, path: String, operation: String, writing: Bool = false, offset: Int = 0,
        _ body: (inout MemoryTree, Int) -> R
    ) throws(StorageError) -> R {
        try tree.withLock { tree throws(StorageError) -> R in
            let handle = try tree.handle(id, path: path, operation: operation, writing: writing)
            if offset < 0 { throw .systemCall(operation, path: path, errno: EINVAL) }
            return body(&tree, handle.node)
        }
    }

    func close(handle id: Int) {
        tree.withLock { tree in tree.close(id) }
    }

    func releaseLock(key: String, id: Int) {
        tree.withLock { tree in
            if tree.locks[key] == id { tree.locks[key] = nil }
        }
    }
}
