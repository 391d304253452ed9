// Finding a store's cipher from its ENCRYPTION file and the key a caller gave, with the rules
// of docs/encryption.md ("What a caller does"); and sealing or passing through whole files
// depending on whether the store is encrypted.

extension FileCipher {
    /// The cipher of the existing store in `directory` (whose files are `names`), or nil for
    /// a plain store opened without a key.
    ///
    /// - Throws: `keyRequired` (encrypted, no key), `notEncrypted` (plain, a key given),
    ///   `wrongKey`, `corruption` of `ENCRYPTION`, `invalidArgument` for a malformed key.
    package static func load(
        directory: String, names: [String], fileSystem: any FileSystem, encryption: StoreEncryption?
    ) throws(StorageError) -> FileCipher? {
        let path = directory + "/" + KeyEnvelope.fileName
        guard names.contains(KeyEnvelope.fileName) else {
            if encryption != nil {
                throw StorageError(.notEncrypted, "The store at \(directory) is not encrypted; open it without a key.", file: path)
            }
            return nil
        }
        guard let encryption else {
            throw StorageError(.keyRequired, "The store at \(directory) is encrypted; open it with its key.", file: path)
        }
        let handle = try fileSystem.openFile(path, mode: .readOnly)
        defer { handle.close() }
        // Read at most one byte past the fixed size: a longer file is corruption, not a large read.
        let bytes = try handle.read(count: min(try handle.size(), KeyEnvelope.size + 1), at: 0)
        let envelope = try bytes.withBytes { (raw) throws(StorageError) in try KeyEnvelope.decode(raw, file: path) }
        let dataKey = try envelope.unlock(encryption, file: path)
        return FileCipher(identity: envelope.identity, dataKey: dataKey)
    }
}

extension FileCipher? {
    /// `plain` sealed as file `number` of `kind` when the store is encrypted; as it is otherwise.
    package func sealed(_ plain: [UInt8], kind: FileCipher.FileKind, number: UInt64) -> [UInt8] {
        guard let cipher = self else { return plain }
        return cipher.sealFile(plain, kind: kind, number: number)
    }

    /// The plain file inside `bytes` when the store is encrypted; `bytes` otherwise.
    ///
    /// - Throws: `corruption` naming `file` when the envelope does not open.
    package func opened(_ bytes: [UInt8], kind: FileCipher.FileKind, number: UInt64, file: String) throws(StorageError) -> [UInt8] {
        guard let cipher = self else { return bytes }
        return try cipher.openFile(bytes, kind: kind, number: number, file: file)
    }
}
