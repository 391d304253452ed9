// Named stores under one root directory, as SmartStore keeps a user store and a global store:
// list, open (creating), and remove them. Store names become directory names, so they are
// restricted to plain, portable file names. Files are reached through the engine's file-system
// seam and named by its FileNames.

import StockpotStorage

/// The stores kept under one root directory, each in a subdirectory named after the store.
///
/// Immutable and `Sendable`. Opening goes through ``Store/open(directory:options:)-9ekas``, so a
/// store open in this or another process cannot be opened or removed (`store_locked`).
public struct StoreDirectory: Sendable, Hashable {
    /// The root directory.
    public let root: String

    /// The stores under `root` (created on first use).
    public init(root: String) {
        self.root = root
    }

    /// The longest store name, in bytes.
    public static let maximumNameBytes = 200

    /// The names of the stores under the root, sorted.
    ///
    /// - Throws: `io_error` when the root exists but cannot be read.
    public func storeNames() throws(StockpotError) -> [String] {
        let fileSystem = RealFileSystem()
        guard fileSystem.fileExists(root) else { return [] }
        let names: [String]
        do {
            names = try fileSystem.listDirectory(root)
        } catch {
            throw StockpotError(.ioError, "The store root \(root) cannot be listed: \(error.message)", underlying: error)
        }
        return names.filter(storeExists).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Whether a store of that name exists.
    public func storeExists(_ name: String) -> Bool {
        Self.isValidName(name) && RealFileSystem().fileExists(path(of: name) + "/" + FileNames.manifest)
    }

    /// Opens the named store, creating it (and the root) when it does not exist.
    ///
    /// - Throws: `invalid_store_name`; the errors of ``Store/open(directory:options:)-9ekas``.
    public func open(_ name: String, options: StoreOptions = StoreOptions()) throws(StockpotError) -> Store {
        try Self.validateName(name)
        do {
            try RealFileSystem().createDirectory(root)
        } catch {
            throw StockpotError(.ioError, "The store root \(root) cannot be created: \(error.message)", underlying: error)
        }
        return try Store.open(directory: path(of: name), options: options)
    }

    /// Removes the named store and all its files; removing a store that does not exist does
    /// nothing.
    ///
    /// - Throws: `invalid_store_name`; `store_locked` when the store is open for writing (here
    ///   or in another process; a read-only open takes no lock); `io_error`.
    public func removeStore(_ name: String) throws(StockpotError) {
        try Self.validateName(name)
        let directory = path(of: name)
        let fileSystem = RealFileSystem()
        guard fileSystem.fileExists(directory) else { return }
        let lock: any FileLock
        do {
            lock = try fileSystem.lockDirectory(directory)
        } catch {
            throw StockpotError(error)
        }
        defer { lock.release() }
        do {
            try Self.removeTree(directory, fileSystem: fileSystem)
        } catch {
            throw StockpotError(.ioError, "The store \(name) cannot be removed: \(error.message)", underlying: error)
        }
    }

    /// Removes `path` and everything under it: a directory is what lists.
    private static func removeTree(_ path: String, fileSystem: RealFileSystem) throws(StorageError) {
        let names: [String]
        do {
            names = try fileSystem.listDirectory(path)
        } catch {
            try fileSystem.removeFile(path)
            return
        }
        for name in names { try removeTree(path + "/" + name, fileSystem: fileSystem) }
        try fileSystem.removeDirectory(path)
    }

    /// The directory of the named store.
    public func path(of name: String) -> String {
        root + "/" + name
    }

    /// Whether `name` can name a store: 1 to 200 bytes of ASCII letters, digits, `-`, `_` and
    /// `.`, not starting with `.`.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumNameBytes, bytes[0] != UInt8(ascii: ".") else { return false }
        return bytes.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }

    private static func validateName(_ name: String) throws(StockpotError) {
        guard isValidName(name) else {
            throw StockpotError(
                .invalidStoreName,
                "\"\(name.prefix(40))\" cannot name a store: use 1 to \(maximumNameBytes) ASCII letters, digits, '-', '_' or '.', not starting with '.'."
            )
        }
    }
}
