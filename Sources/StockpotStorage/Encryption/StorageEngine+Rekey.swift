// Rekey: the data key wrapped under a new key or passphrase, ENCRYPTION replaced by the
// durable-replacement protocol; no data byte is rewritten (docs/encryption.md).

extension StorageEngine {
    /// Makes `encryption` the store's key: the next open needs it, and the old key no longer
    /// opens the store. A crash leaves the old `ENCRYPTION` file or the new one, whole.
    ///
    /// - Throws: `notEncrypted` for a plain store; `invalidArgument` for a malformed key;
    ///   `readOnly`, `closed`, `poisoned`; `ioError` (the old key then still opens the store).
    public func rekey(to encryption: StoreEncryption) throws(StorageError) {
        guard let cipher else {
            throw StorageError(.notEncrypted, "The store is not encrypted; there is no key to change.")
        }
        let envelope = try cipher.envelope(under: encryption)
        try writer.withLock { (state) throws(StorageError) in
            try checkWritable(state)
            try DurableReplacement.writeFile(
                envelope.encoded(), to: path(KeyEnvelope.fileName), directory: directory, fileSystem: fileSystem)
        }
    }
}
