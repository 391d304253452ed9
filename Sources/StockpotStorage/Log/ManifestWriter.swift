// Writing MANIFEST by the durability protocol: temporary file, fsync, rename, directory fsync
// (docs/format/manifest.md, docs/durability.md "Write the manifest").

struct ManifestWriter {
    let directory: String
    let fileSystem: any FileSystem

    func write(_ manifest: Manifest) throws(StorageError) {
        let final = directory + "/" + FileNames.manifest
        let temporary = FileNames.temporary(final)
        let handle = try fileSystem.openFile(temporary, mode: .createOrTruncate)
        defer { handle.close() }
        try handle.write(manifest.encoded(), at: 0)
        try handle.sync()
        try fileSystem.rename(temporary, to: final)
        try fileSystem.syncDirectory(directory)
    }
}
