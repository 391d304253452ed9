// Converting a whole store (encrypt, decrypt, rotate the data key): every live key and value
// copied at the engine level into `STORE.converting`, made durable, then swapped with STORE in
// one renameat2(RENAME_EXCHANGE) (docs/durability.md, "Converting a store").

/// Whole-store conversion. Stateless; the store's lock is held for the whole conversion.
package enum StoreConversion {
    /// What a conversion copied.
    package struct Report: Sendable {
        /// Live keys copied.
        package var keys = 0
        /// Bytes of keys and values copied.
        package var bytes = 0
        /// Whether a staging directory left by an interrupted conversion was removed first.
        package var removedLeftover = false
    }

    /// Where the new store is built: `STORE.converting`, beside the store.
    package static func stagingPath(for directory: String) -> String {
        trimmed(directory) + ".converting"
    }

    /// Rewrites the store in `directory`, opened with `from` (nil: a plain store), as a new
    /// store keyed by `to` (nil: plain), with its own identity and, when encrypted, a fresh
    /// data key. The store's lock is held throughout, so nothing else opens it meanwhile.
    ///
    /// Crash safety: until the exchange, `directory` is the old store untouched and the
    /// staging directory is a leftover; from the exchange on, `directory` is the new store,
    /// complete and durable, and the staging directory (the old store) a leftover. A leftover
    /// is removed by the next conversion (``removeLeftover(of:fileSystem:)``).
    ///
    /// - Parameter batchBytes: the keys and values written per engine batch.
    /// - Parameter progress: called with the keys and bytes copied so far, now and then.
    /// - Throws: `keyRequired`, `wrongKey`, `notEncrypted` as an open with `from` would;
    ///   `storeLocked` when the store, or a conversion of it, is busy; `corruption` when a
    ///   value does not read; `ioError` (the old store is then still at `directory`, unless
    ///   the failure came after the exchange).
    package static func convert(
        directory: String, from: StoreEncryption?, to: StoreEncryption?, batchBytes: Int = 4 << 20,
        progress: ((_ keys: Int, _ bytes: Int) -> Void)? = nil
    ) throws(StorageError) -> Report {
        let fileSystem = RealFileSystem()
        let target = trimmed(directory)
        let staging = stagingPath(for: target)
        var sourceOptions = StorageOptions()
        sourceOptions.readOnly = true
        sourceOptions.encryption = from
        sourceOptions.backgroundCompaction = false
        sourceOptions.warmMappings = false
        // The lock first, held to the end: a read-only open takes none, and no writer may
        // go on in a store about to be swapped away. Read-only: nothing of the old store
        // changes.
        let lock = try fileSystem.lockDirectory(target)
        defer { lock.release() }
        let source = try StorageEngine.open(directory: target, options: sourceOptions)
        var report = Report()
        // Once a leftover is gone the staging directory is this conversion's: the copy being
        // built, or after the exchange the old store. Either way it goes when this returns.
        var ownsStaging = false
        defer {
            try? source.close()
            if ownsStaging { DurableReplacement.removeFlatDirectory(staging, fileSystem: fileSystem) }
        }
        report.removedLeftover = try removeLeftover(of: target, fileSystem: fileSystem)
        ownsStaging = true

        var stagingOptions = StorageOptions()
        stagingOptions.durability = .none
        stagingOptions.encryption = to
        stagingOptions.backgroundCompaction = false
        stagingOptions.warmMappings = false
        let copy = try StorageEngine.open(directory: staging, options: stagingOptions, fileSystem: fileSystem)
        do throws(StorageError) {
            try copyEverything(from: source, into: copy, batchBytes: batchBytes, report: &report, progress: progress)
            try copy.close()
        } catch {
            try? copy.close()
            throw error
        }
        // Everything the copy wrote, and its directory, durable before it takes the name.
        try syncEveryFile(in: staging, fileSystem: fileSystem)
        try fileSystem.exchange(staging, target)
        try fileSystem.syncDirectory(parent(of: target))
        return report
    }

    /// Removes `STORE.converting` when an interrupted conversion left it; returns whether it
    /// did. Call with the store's lock held: a leftover whose own lock is held belongs to a
    /// conversion still running (which has just swapped it in), and is `storeLocked`.
    package static func removeLeftover(of directory: String, fileSystem: any FileSystem) throws(StorageError) -> Bool {
        let staging = stagingPath(for: directory)
        guard fileSystem.fileExists(staging) else { return false }
        let lock = try fileSystem.lockDirectory(staging)
        lock.release()
        DurableReplacement.removeFlatDirectory(staging, fileSystem: fileSystem)
        guard !fileSystem.fileExists(staging) else {
            throw StorageError(.ioError, "Cannot remove \(staging), left by an interrupted conversion.", file: staging)
        }
        try fileSystem.syncDirectory(parent(of: directory))
        return true
    }

    /// Copies every live key and value of `source` into `copy`, `batchBytes` at a time.
    private static func copyEverything(
        from source: StorageEngine, into copy: StorageEngine, batchBytes: Int, report: inout Report,
        progress: ((Int, Int) -> Void)?
    ) throws(StorageError) {
        var batch = WriteBatch()
        var batchSize = 0
        var failure: StorageError?
        do {
            try source.view().forEach { key, value in
                batch.put(key, value)
                batchSize += key.count + value.count
                report.keys += 1
                report.bytes += key.count + value.count
                if batchSize >= batchBytes {
                    do throws(StorageError) {
                        _ = try copy.write(batch)
                    } catch {
                        failure = error
                        return false
                    }
                    batch = WriteBatch()
                    batchSize = 0
                    progress?(report.keys, report.bytes)
                }
                return true
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(.ioError, "Cannot read the store to convert it: \(error)")
        }
        if let failure { throw failure }
        if !batch.isEmpty { _ = try copy.write(batch) }
        progress?(report.keys, report.bytes)
    }

    /// fsyncs every file of the flat directory `path`, then the directory.
    private static func syncEveryFile(in path: String, fileSystem: any FileSystem) throws(StorageError) {
        for name in try fileSystem.listDirectory(path) {
            let handle = try fileSystem.openFile(path + "/" + name, mode: .readOnly)
            defer { handle.close() }
            try handle.sync()
        }
        try fileSystem.syncDirectory(path)
    }

    private static func trimmed(_ directory: String) -> String {
        var path = directory
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
