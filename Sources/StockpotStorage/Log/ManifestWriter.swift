// Writing MANIFEST by the durability protocol: temporary file, fsync, rename, directory fsync
// (docs/format/manifest.md, docs/durability.md "Write the manifest").

struct ManifestWriter {
    let directory: String
    let fileSystem: any FileSystem

    func write(_ manifest: Manifest) throws(StorageError) {
        try DurableReplacement.writeFile(
            manifest.encoded(), to: directory + "/" + FileNames.manifest, directory: directory, fileSystem: fileSystem)
    }
}
