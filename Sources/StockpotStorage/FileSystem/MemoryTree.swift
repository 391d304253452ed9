// The value the in-memory file system keeps under its lock: a tree of directories and files,
// each with its current and its durable state, plus open handles and held locks.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory tree whose every node remembers what would survive a power loss.
///
/// A file's durable bytes are those of its last `sync`; a directory's durable entries are those
/// of its last `syncDirectory`. Nodes are inodes: a rename moves the node, so content and its
/// sync state follow it to the new name. Not thread-safe; ``MemoryFileSystem`` locks it.
struct MemoryTree: Sendable {
    /// What of a file survives power loss.
    enum DurableBytes: Sendable {
        /// The first `data` current bytes (nothing has changed them since the last sync), then
        /// zero bytes up to `length`: the file's zero-filled end at that sync (preallocated
        /// space), whose current bytes may have been written since. So neither an append nor a
        /// write into preallocated space after a sync copies anything.
        case prefix(data: Int, length: Int)
        /// A copy, taken when a write or a truncation first touched the synced data.
        case copy([UInt8])

        /// Exactly the first `count` current bytes.
        static func prefix(_ count: Int) -> Self { .prefix(data: count, length: count) }
    }

    struct File: Sendable {
        var bytes: [UInt8] = []
        var durable: DurableBytes = .prefix(0)
        /// Every current byte from this offset on is zero (what a write never touched since a
        /// truncation or an extension made it).
        var zerosFrom = 0

        init(bytes: [UInt8] = [], durable: DurableBytes = .prefix(0)) {
            self.bytes = bytes
            self.durable = durable
            zerosFrom = bytes.count
        }

        var durableBytes: [UInt8] {
            switch durable {
            case .prefix(let data, let length): Array(bytes[0..<data]) + repeatElement(0, count: length - data)
            case .copy(let copy): copy
            }
        }

        /// Keeps the synced bytes before a change that reaches below `offset`.
        mutating func preserveDurable(changingFrom offset: Int) {
            if case .prefix(let data, _) = durable, offset < data {
                durable = .copy(durableBytes)
            }
        }

        /// What a sync makes durable: the current bytes, their zero-filled end noted.
        mutating func sync() {
            durable = .prefix(data: min(zerosFrom, bytes.count), length: bytes.count)
        }
    }

    struct Directory: Sendable {
        var entries: [String: Int] = [:]
        var durableEntries: [String: Int] = [:]
    }

    struct OpenHandle: Sendable {
        var node: Int
        var writable: Bool
    }

    static let rootID = 0

    var files: [Int: File] = [:]
    var directories: [Int: Directory] = [rootID: Directory()]
    var handles: [Int: OpenHandle] = [:]
    /// Held locks: normalized path to lock id.
    var locks: [String: Int] = [:]
    /// The next node, handle or lock id; ids are never reused, so a stale handle stays stale.
    var nextID = 1

    mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    // MARK: Paths

    /// The components of `path` with "", "." and ".." resolved; "/a/b", "a//b/", "./a/b" and
    /// "a/c/../b" are all ["a", "b"]. Relative paths start at the root.
    static func components(_ path: String) -> [String] {
        var parts: [String] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
            } else {
                parts.append(String(part))
            }
        }
        return parts
    }

    /// The normalized spelling of `path`, used as the key of a lock.
    static func normalized(_ path: String) -> String {
        "/" + components(path).joined(separator: "/")
    }

    /// The directory the components name; ENOENT or ENOTDIR on the way.
    func directoryID(_ parts: ArraySlice<String>, path: String, operation: String)
        throws(StorageError) -> Int
    {
        var current = Self.rootID
        for part in parts {
            guard let next = directories[current]?.entries[part] else {
                throw .systemCall(operation, path: path, errno: ENOENT)
            }
            guard directories[next] != nil else {
                throw .systemCall(operation, path: path, errno: ENOTDIR)
            }
            current = next
        }
        return current
    }

    /// The parent directory of `path` and its last component; `nil` name for the root.
    func locate(_ path: String, operation: String) throws(StorageError) -> (parent: Int, name: String?) {
        let parts = Self.components(path)
        guard let name = parts.last else { return (Self.rootID, nil) }
        return (try directoryID(parts.dropLast(), path: path, operation: operation), name)
    }

    /// The node at `path`, or `nil` when there is none.
    func node(at path: String) -> Int? {
        guard let (parent, name) = try? locate(path, operation: "find") else { return nil }
        guard let name else { return Self.rootID }
        return directories[parent]?.entries[name]
    }

    // MARK: Files

    mutating func open(_ path: String, mode: FileOpenMode) throws(StorageError) -> Int {
        let verb = mode == .readOnly ? "open for reading" : "open for writing"
        let (parent, name) = try locate(path, operation: verb)
        guard let name else { throw .systemCall(verb, path: path, errno: EISDIR) }
        let node: Int
        if let existing = directories[parent]!.entries[name] {
            if mode == .createNew { throw .systemCall("create", path: path, errno: EEXIST) }
            if directories[existing] != nil { throw .systemCall(verb, path: path, errno: EISDIR) }
            node = existing
            if mode == .createOrTruncate {
                files[node]!.preserveDurable(changingFrom: 0)
                files[node]!.bytes = []
            }
        } else {
            guard mode == .createNew || mode == .createOrTruncate else {
                throw .systemCall(verb, path: path, errno: ENOENT)
            }
            node = makeID()
            files[node] = File()
            directories[parent]!.entries[name] = node
        }
        let handle = makeID()
        handles[handle] = OpenHandle(node: node, writable: mode != .readOnly)
        return handle
    }

    /// The open handle `id`; EBADF when closed or lost to a power failure.
    func handle(_ id: Int, path: String, operation: String, writing: Bool = false)
        throws(StorageError) -> OpenHandle
    {
        guard let handle = handles[id], !writing || handle.writable else {
            throw .systemCall(operation, path: path, errno: EBADF)
        }
        return handle
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer, at offset: Int, node: Int) {
        let end = offset + bytes.count
        guard !bytes.isEmpty else { return }
        files[node]!.preserveDurable(changingFrom: offset)
        if files[node]!.bytes.count < end {
            files[node]!.bytes.append(
                contentsOf: repeatElement(0, count: end - files[node]!.bytes.count))
        }
        files[node]!.bytes.replaceSubrange(offset..<end, with: bytes)
        files[node]!.zerosFrom = max(files[node]!.zerosFrom, end)
    }

    mutating func truncate(node: Int, to size: Int) {
        let count = files[node]!.bytes.count
        if size < count {
            files[node]!.preserveDurable(changingFrom: size)
            files[node]!.bytes.removeSubrange(size...)
            files[node]!.zerosFrom = min(files[node]!.zerosFrom, size)
        } else if size > count {
            files[node]!.bytes.append(contentsOf: repeatElement(0, count: size - count))
        }
    }

    mutating func close(_ handle: Int) {
        guard let node = handles.removeValue(forKey: handle)?.node else { return }
        collectIfUnreferenced(node)
    }

    // MARK: Durability

    /// Everything reverts to its durable state; handles and locks are gone, as after a reboot.
    mutating func losePower() {
        for id in directories.keys { directories[id]!.entries = directories[id]!.durableEntries }
        for id in files.keys {
            let survivor = files[id]!.durableBytes
            files[id] = File(bytes: survivor, durable: .prefix(survivor.count))
        }
        handles.removeAll()
        locks.removeAll()
        var reachable: Set<Int> = [Self.rootID]
        var pending = [Self.rootID]
        while let id = pending.popLast() {
            guard let directory = directories[id] else { continue }
            for child in directory.entries.values where reachable.insert(child).inserted {
                pending.append(child)
            }
        }
        files = files.filter { reachable.contains($0.key) }
        directories = directories.filter { reachable.contains($0.key) }
    }

    /// Drops `node` once no name (current or durable) and no open handle refers to it.
    mutating func collectIfUnreferenced(_ node: Int) {
        guard node != Self.rootID else { return }
        if handles.values.contains(where: { $0.node == node }) { return }
        for directory in directories.values {
            if directory.entries.values.contains(node) || directory.durableEntries.values.contains(node) {
                return
            }
        }
        files[node] = nil
        directories[node] = nil
    }
}
