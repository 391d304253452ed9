// The in-memory tree's name operations: rename, remove, list, mkdir -p, directory sync and
// locks, failing with the errno the POSIX call would give.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension MemoryTree {
    mutating func rename(_ source: String, to destination: String) throws(StorageError) {
        let verb = "rename \(source) to"
        let (fromParent, fromName) = try locate(source, operation: verb)
        let (toParent, toName) = try locate(destination, operation: verb)
        guard let fromName, let toName else { throw .systemCall(verb, path: destination, errno: EBUSY) }
        guard let node = directories[fromParent]!.entries[fromName] else {
            throw .systemCall(verb, path: destination, errno: ENOENT)
        }
        let replaced = directories[toParent]!.entries[toName]
        if replaced == node { return }  // Two names of one file: POSIX does nothing.
        let movingDirectory = directories[node] != nil
        if let replaced {
            switch (movingDirectory, directories[replaced]) {
            case (false, .some): throw .systemCall(verb, path: destination, errno: EISDIR)
            case (true, .none): throw .systemCall(verb, path: destination, errno: ENOTDIR)
            case (true, .some(let target)) where !target.entries.isEmpty:
                throw .systemCall(verb, path: destination, errno: ENOTEMPTY)
            default: break
            }
        }
        if movingDirectory {
            let from = Self.components(source)
            if Self.components(destination).starts(with: from) {
                throw .systemCall(verb, path: destination, errno: EINVAL)
            }
        }
        directories[fromParent]!.entries[fromName] = nil
        directories[toParent]!.entries[toName] = node
        if let replaced { collectIfUnreferenced(replaced) }
    }

    mutating func removeFile(_ path: String) throws(StorageError) {
        let (parent, name) = try locate(path, operation: "remove")
        guard let name else { throw .systemCall("remove", path: path, errno: EISDIR) }
        guard let node = directories[parent]!.entries[name] else {
            throw .systemCall("remove", path: path, errno: ENOENT)
        }
        if directories[node] != nil { throw .systemCall("remove", path: path, errno: EISDIR) }
        directories[parent]!.entries[name] = nil
        collectIfUnreferenced(node)
    }

    /// Removes the entry of the empty directory `path` from its parent. The directory's node
    /// stays (a durable entry may still name it until the parent is synced).
    mutating func removeDirectory(_ path: String) throws(StorageError) {
        let (parent, name) = try locate(path, operation: "remove the directory")
        guard let name, let node = directories[parent]!.entries[name] else {
            throw .systemCall("remove the directory", path: path, errno: ENOENT)
        }
        guard let directory = directories[node] else { throw .systemCall("remove the directory", path: path, errno: ENOTDIR) }
        guard directory.entries.isEmpty else { throw .systemCall("remove the directory", path: path, errno: ENOTEMPTY) }
        directories[parent]!.entries[name] = nil
    }

    func listDirectory(_ path: String) throws(StorageError) -> [String] {
        let id = try directoryID(Self.components(path)[...], path: path, operation: "list")
        return Array(directories[id]!.entries.keys)
    }

    mutating func createDirectory(_ path: String) throws(StorageError) {
        var current = Self.rootID
        for part in Self.components(path) {
            if let next = directories[current]!.entries[part] {
                guard directories[next] != nil else {
                    throw .systemCall("create the directory", path: path, errno: ENOTDIR)
                }
                current = next
            } else {
                let next = makeID()
                directories[next] = Directory()
                directories[current]!.entries[part] = next
                current = next
            }
        }
    }

    mutating func syncDirectory(_ path: String) throws(StorageError) {
        let id = try directoryID(
            Self.components(path)[...], path: path, operation: "open the directory")
        directories[id]!.durableEntries = directories[id]!.entries
    }

    /// Takes the lock on `path`, creating the file (not durably) like `open(O_CREAT)`.
    mutating func lock(_ path: String) throws(StorageError) -> (key: String, id: Int) {
        let (parent, name) = try locate(path, operation: "open the store directory to lock it")
        if let name {
            guard let node = directories[parent]!.entries[name] else {
                throw .systemCall("open the store directory to lock it", path: path, errno: ENOENT)
            }
            guard directories[node] != nil else {
                throw .systemCall("open the store directory to lock it", path: path, errno: ENOTDIR)
            }
        }
        let key = Self.normalized(path)
        if locks[key] != nil {
            throw StorageError(
                .storeLocked, "Another process or open already holds the store \(path).",
                file: path, errno: EWOULDBLOCK)
        }
        let id = makeID()
        locks[key] = id
        return (key, id)
    }

    /// Sets the file's bytes and makes them and its name durable at once.
    mutating func setContents(_ path: String, _ bytes: [UInt8]) throws(StorageError) {
        let (parent, name) = try locate(path, operation: "create")
        guard let name else { throw .systemCall("create", path: path, errno: EISDIR) }
        let node: Int
        if let existing = directories[parent]!.entries[name] {
            if directories[existing] != nil { throw .systemCall("create", path: path, errno: EISDIR) }
            node = existing
        } else {
            node = makeID()
            directories[parent]!.entries[name] = node
        }
        files[node] = File(bytes: bytes, durable: .prefix(bytes.count))
        let replaced = directories[parent]!.durableEntries.updateValue(node, forKey: name)
        if let replaced, replaced != node { collectIfUnreferenced(replaced) }
    }
}
