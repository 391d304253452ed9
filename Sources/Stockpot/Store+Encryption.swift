// Changing an encrypted store's key (docs/encryption.md, "Rekey, rotation, encrypt and
// decrypt"); the tools build rotation, encryption and decryption on copies.

import StockpotStorage

extension Store {
    /// Whether the store is encrypted.
    public var isEncrypted: Bool { engine.cipher != nil }

    /// Makes `encryption` (a new key or passphrase) the store's key. Only the small
    /// `ENCRYPTION` file is rewritten, by the durable-replacement protocol: a crash leaves the
    /// store opening with the old key or with the new one.
    ///
    /// - Throws: `not_encrypted` for a plain store; `invalid_argument` for a raw key that is not
    ///   32 bytes or a passphrase cost out of range; `read_only`; `store_closed`; `io_error`.
    public func rekey(to encryption: StoreEncryption) throws(StockpotError) {
        do throws(StorageError) {
            try engine.rekey(to: encryption)
        } catch  where error.code == .invalidArgument {
            throw StockpotError(.invalidArgument, error.message, underlying: error)
        } catch {
            throw StockpotError(error)
        }
    }
}
