// The one crash-safe way a file or a whole directory takes its place (docs/durability.md): the
// new content is written beside the target under a temporary name and made durable, then
// renamed over it, then the directory holding it is fsynced. Every engine file that is written
// whole (manifest, snapshot, dictionary, blob, hint) and the restore tool's new store use it.

/// Crash-safe replacement of files and directories. Stateless.
package enum DurableReplacement {
    /// Writes `parts` (concatenated) as the whole content of `path`: `path.tmp` is written and
    /// fsynced, renamed over `path`, then `directory` is fsynced unless `syncDirectory` is
    /// false (a hint file: losing the rename only costs a scan). A crash leaves either the old
    /// file or the new one, never a mix; a failure removes the temporary file.
    ///
    /// - Throws: `ioError` from the file system; the target is then as it was.
    package static func writeFile(
        _ parts: [UInt8]..., to path: String, directory: String, syncDirectory: Bool = true,
        fileSystem: any FileSystem
    ) throws(StorageError) {
        let temporary = FileNames.temporary(path)
        do throws(StorageError) {
            let handle = try fileSystem.openFile(temporary, mode: .createOrTruncate)
            defer { handle.close() }
            var offset = 0
            for part in parts {
                try handle.write(part, at: offset)
                offset += part.count
            }
            try handle.sync()
            try fileSystem.rename(temporary, to: path)
        } catch {
            try? fileSystem.removeFile(temporary)
            throw error
        }
        if syncDirectory { try fileSystem.syncDirectory(directory) }
    }

    /// Puts the complete, durable directory `staged` at `target`, which holds only files (a
    /// store): an existing target is first renamed to `aside`, then `staged` is renamed to
    /// `target`, the parent directory is fsynced, and only then is the old directory removed.
    /// A crash before the second rename leaves the old target (or, between the renames, no
    /// target and the old one under `aside`); after it, the new one.
    ///
    /// - Throws: `ioError`; when the second rename fails the old target is put back.
    package static func installDirectory(
        _ staged: String, at target: String, aside: String, parent: String, fileSystem: any FileSystem
    ) throws(StorageError) {
        let targetExists = fileSystem.fileExists(target)
        if targetExists { try fileSystem.rename(target, to: aside) }
        do throws(StorageError) {
            try fileSystem.rename(staged, to: target)
        } catch {
            if targetExists { try? fileSystem.rename(aside, to: target) }
            throw error
        }
        try fileSystem.syncDirectory(parent)
        if targetExists { removeFlatDirectory(aside, fileSystem: fileSystem) }
    }

    /// Removes a directory that holds only files, best effort (what is left is a `*.tmp`
    /// directory a later restore cleans up).
    package static func removeFlatDirectory(_ path: String, fileSystem: any FileSystem) {
        for name in (try? fileSystem.listDirectory(path)) ?? [] {
            try? fileSystem.removeFile(path + "/" + name)
        }
        try? fileSystem.removeDirectory(path)
    }
}
