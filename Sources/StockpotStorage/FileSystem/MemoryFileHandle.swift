// An open file of a MemoryFileSystem, and a lock held on one: thin references whose state
// (the node, the lock owner) lives in the file system's locked tree.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file opened by ``MemoryFileSystem``.
///
/// Thread-safe (calls are serialized by the file system's lock). After `close` or a simulated
/// power loss every call fails with `ioError` (EBADF). A removed file stays readable through
/// handles opened before the removal, as on POSIX.
final class MemoryFileHandle: FileHandle {
    let path: String
    private let id: Int
    private let fileSystem: MemoryFileSystem

    init(path: String, id: Int, fileSystem: MemoryFileSystem) {
        self.path = path
        self.id = id
        self.fileSystem = fileSystem
    }

    deinit { close() }

    func size() throws(StorageError) -> Int {
        try fileSystem.withOpenFile(id, path: path, operation: "stat") { tree, node in
            tree.files[node]!.bytes.count
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(StorageError) -> Int {
        try fileSystem.withOpenFile(
            id, path: path, operation: "read at byte \(offset) of", offset: offset
        ) { tree, node in
            let bytes = tree.files[node]!.bytes
            guard offset < bytes.count else { return 0 }
            let count = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + count]))
            }
            return count
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(StorageError) {
        try fileSystem.withOpenFile(
            id, path: path, operation: "write at byte \(offset) of", writing: true, offset: offset
        ) { tree, node in
            tree.write(bytes, at: offset, node: node)
        }
    }

    func sync() throws(StorageError) {
        try fileSystem.withOpenFile(id, path: path, operation: "fsync") { tree, node in
            tree.files[node]!.sync()
        }
    }

    /// As ``sync()``: the in-memory file has no timestamps to leave out.
    func syncData() throws(StorageError) {
        try sync()
    }

    /// Nothing: the in-memory file has no device to write to (only a sync makes it durable).
    func startWriteback(offset: Int, count: Int) {}

    /// Zero-extends the file to `size` bytes when it is shorter (durable at the next sync).
    func preallocate(size: Int) throws(StorageError) {
        try fileSystem.withOpenFile(
            id, path: path, operation: "preallocate \(size) bytes of", writing: true, offset: size
        ) { tree, node in
            if size > tree.files[node]!.bytes.count { tree.truncate(node: node, to: size) }
        }
    }

    func truncate(to size: Int) throws(StorageError) {
        try fileSystem.withOpenFile(
            id, path: path, operation: "truncate to \(size) bytes", writing: true, offset: size
        ) { tree, node in
            tree.truncate(node: node, to: size)
        }
    }

    func close() {
        fileSystem.close(handle: id)
    }
}

/// A lock held in a ``MemoryFileSystem``; released by `release`, by deinit, or by power loss.
final class MemoryFileLock: FileLock {
    private let key: String
    private let id: Int
    private let fileSystem: MemoryFileSystem

    init(key: String, id: Int, fileSystem: MemoryFileSystem) {
        self.key = key
        self.id = id
        self.fileSystem = fileSystem
    }

    deinit { release() }

    func release() {
        fileSystem.releaseLock(key: key, id: id)
    }
}
