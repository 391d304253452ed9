// Writing MANIFEST by the durability protocol: temporary file, fsync, rename, directory fsync
// (docs/format/manifest.md, docs/durability.md "Write the manifest").

struct ManifestWriter {
    let directory: String
    let fileSystem: any FileSystem
    /// Seals the manifest in an encrypted store.
    let cipher: FileCipher?

    func write(_ manifest: Manifest) throws(StorageError) {
        try DurableReplacement.writeFile(
            cipher.sealed(manifest.encoded(), kind: .manifest, number: 0), to: directory + "/" + FileNames.manifest, directory: directory,
            fileSystem: fileSystem)
    }
}
