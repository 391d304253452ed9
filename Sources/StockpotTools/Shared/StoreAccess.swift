// Opening stores for the data commands: an existing store for dump, stats, verify and compact
// (never creating one by mistake), any store for import; failures as ToolFailures.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Stockpot
import StockpotStorage

/// How the data commands open stores.
enum StoreAccess {
    /// Whether `directory` holds a store (it has a MANIFEST).
    static func isStore(_ directory: String) -> Bool {
        access(directory + "/" + FileNames.manifest, F_OK) == 0
    }

    /// Whether `path` exists at all.
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether `path` is a directory with nothing in it.
    static func isEmptyDirectory(_ path: String) -> Bool {
        guard let directory = opendir(path) else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { return false }
        }
        return true
    }

    /// Opens the store in `directory`, which must exist.
    ///
    /// - Throws: a ``ToolFailure`` (status 1) when there is no store there or it cannot be
    ///   opened (74 for an I/O error).
    static func openExisting(_ directory: String, options: StoreOptions = StoreOptions()) throws(ToolFailure) -> Store {
        guard isStore(directory) else {
            throw ToolFailure("there is no store at \(directory) (no MANIFEST)")
        }
        return try open(directory, options: options)
    }

    /// Opens (or creates) the store in `directory`.
    static func open(_ directory: String, options: StoreOptions = StoreOptions()) throws(ToolFailure) -> Store {
        do {
            let store = try Store.open(directory: directory, options: options)
            reportOpenWarnings(store)
            return store
        } catch {
            throw ToolFailure(error, doing: "cannot open the store at \(directory)", hint: keyHint(error))
        }
    }

    /// What to add to a key error's message: which option gives the key.
    static func keyHint(_ error: StockpotError) -> String? {
        keyHint(code: error.code.rawValue)
    }

    /// ``keyHint(_:)`` for an error code of any layer.
    static func keyHint(code: String) -> String? {
        switch code {
        case StockpotError.Code.keyRequired.rawValue: return "give its key with --key-file F (or STOCKPOT_KEY_FILE)"
        case StockpotError.Code.notEncrypted.rawValue:
            return "open it without --key-file (and STOCKPOT_KEY_FILE unset), or encrypt it with 'stockpot encrypt'"
        default: return nil
        }
    }

    /// Prints what the open found wrong and repaired (``Store/openWarnings``) on standard error.
    static func reportOpenWarnings(_ store: Store) {
        for warning in store.openWarnings { StandardStream.error.write("Warning: \(warning)\n") }
    }

    /// Opens the existing store in `directory` for reading only (``StoreOptions/readOnly``):
    /// nothing is written there, so the read-only commands work on read-only media.
    static func openForReading(_ directory: String, encryption: StoreEncryption? = nil) throws(ToolFailure) -> Store {
        var options = StoreOptions()
        options.readOnly = true
        options.encryption = encryption
        return try openExisting(directory, options: options)
    }

    /// Closes `store`.
    static func close(_ store: Store) throws(ToolFailure) {
        do {
            try store.close()
        } catch {
            throw ToolFailure(error, doing: "cannot close the store at \(store.directory)")
        }
    }
}

/// Byte counts as people read them.
enum ByteCount {
    /// `1.2 MB`, `340 B`: decimal units.
    static func describe(_ bytes: Int) -> String {
        let value = Double(bytes)
        if bytes < 1000 { return "\(bytes) B" }
        if value < 1e6 { return ProgressBar.decimal(value / 1e3, places: 1) + " kB" }
        if value < 1e9 { return ProgressBar.decimal(value / 1e6, places: 1) + " MB" }
        return ProgressBar.decimal(value / 1e9, places: 2) + " GB"
    }
}
