// Fuzz target `key-envelope`: ENCRYPTION file bytes through its decoder and, for a raw-key
// file, the key check and unwrap (docs/format/encryption.md, "ENCRYPTION").

import StockpotStorage

/// Decodes an input as an `ENCRYPTION` file, as it is and resealed; an accepted file must be
/// exactly what the encoder writes for it, and a raw-key one is unlocked with a fixed key
/// (a passphrase file is not: its cost is the input's, up to seconds and gigabytes).
enum KeyEnvelopeFuzzTarget {
    static let name = "key-envelope"
    static let key = StoreEncryption.key(Array(0..<32))

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        try decode(data)
        try decode(Reseal.trailer(data))
    }

    private static func decode(_ data: [UInt8]) throws(FuzzFailure) {
        let decoded = data.withUnsafeBytes { bytes in
            Result { () throws(StorageError) in try KeyEnvelope.decode(bytes, file: "ENCRYPTION") }
        }
        guard case .success(let envelope) = decoded else { return }
        if envelope.encoded() != data {
            throw FuzzFailure(name, "an accepted ENCRYPTION file is not what the encoder writes for it")
        }
        guard envelope.derivation == .rawKey else { return }
        do throws(StorageError) {
            _ = try envelope.unlock(key, file: "ENCRYPTION")
        } catch  where error.code == .wrongKey || error.code == .corruption {
            // The documented outcomes of a file this key did not seal.
        } catch {
            throw FuzzFailure(name, "unlocking failed with \(error.code), not wrong_key or corruption")
        }
    }
}
