// The ENCRYPTION file: KDF parameters, the key check and the data key wrapped under the
// caller's key (docs/format/encryption.md, "ENCRYPTION").

import CSodium
import StockpotCore

/// The decoded `ENCRYPTION` file of an encrypted store. A value type; it holds no secret (the
/// data key in it is sealed).
package struct KeyEnvelope: Sendable, Equatable {
    package enum Derivation: UInt8, Sendable {
        case rawKey = 0
        case argon2id = 1
    }

    package var identity: StoreIdentity
    package var derivation: Derivation
    package var cost: PassphraseCost
    package var salt: [UInt8]
    package var keyCheck: [UInt8]
    package var wrapNonce: [UInt8]
    package var wrappedDataKey: [UInt8]

    /// The file's name in the store directory.
    package static let fileName = "ENCRYPTION"
    /// `STKPKEY\0`.
    package static let magic: [UInt8] = [0x53, 0x54, 0x4B, 0x50, 0x4B, 0x45, 0x59, 0x00]
    package static let version: UInt32 = 1
    /// Cipher 1: XChaCha20-Poly1305-IETF.
    package static let cipher: UInt8 = 1
    package static let size = 180
    static let saltSize = 16
    static let checkSize = 32
    static let wrappedSize = GuardedKey.size + FileCipher.tagSize
    /// The bytes the wrap's associated data covers: everything before the wrap nonce.
    static let associatedSize = 100
    static let checkLabel: [UInt8] = Array("stockpot key check".utf8)

    // MARK: - Creating and opening

    /// A new envelope for a store of `identity`: a fresh data key, wrapped under the key
    /// `encryption` gives. Returns the envelope and the data key.
    ///
    /// - Throws: `invalidArgument` for a raw key that is not 32 bytes or a passphrase cost
    ///   out of range; `ioError` when guarded memory or the derivation fails.
    package static func create(
        identity: StoreIdentity, encryption: StoreEncryption
    ) throws(StorageError) -> (KeyEnvelope, GuardedKey) {
        guard let dataKey = GuardedKey.random() else { throw memoryFailure() }
        let envelope = try sealing(dataKey, identity: identity, under: encryption)
        return (envelope, dataKey)
    }

    /// An envelope for `identity` holding `dataKey` wrapped under the key `encryption` gives
    /// (a fresh salt for a passphrase): what rekey writes.
    package static func sealing(
        _ dataKey: GuardedKey, identity: StoreIdentity, under encryption: StoreEncryption
    ) throws(StorageError) -> KeyEnvelope {
        var envelope = KeyEnvelope(
            identity: identity, derivation: .rawKey, cost: PassphraseCost(operations: 0, memoryBytes: 0),
            salt: [UInt8](repeating: 0, count: saltSize), keyCheck: [], wrapNonce: FileCipher.randomNonce(),
            wrappedDataKey: [])
        if case .passphrase(_, let cost) = encryption {
            guard cost.isValid else {
                throw StorageError(
                    .invalidArgument,
                    "A passphrase cost must have 1 to 16 operations and 8 KiB to 4 GiB of memory.")
            }
            envelope.derivation = .argon2id
            envelope.cost = cost
            envelope.salt = FileCipher.randomBytes(saltSize)
        }
        let keyEncryptionKey = try envelope.deriveKey(encryption)
        envelope.keyCheck = envelope.check(keyEncryptionKey)
        let associated = Array(envelope.encoded().prefix(associatedSize))
        envelope.wrappedDataKey = dataKey.withBytes { key in
            FileCipher.seal(key, nonce: envelope.wrapNonce, associated: associated, key: keyEncryptionKey)
        }
        return envelope
    }

    /// The data key, when `encryption` is this store's key.
    ///
    /// - Throws: `wrongKey` when the key check differs (compared in constant time, before any
    ///   data is read); `corruption` naming `file` when the check matches but the wrapped key
    ///   does not authenticate; `invalidArgument` for a raw key that is not 32 bytes.
    package func unlock(_ encryption: StoreEncryption, file: String) throws(StorageError) -> GuardedKey {
        switch (derivation, encryption) {
        case (.rawKey, .passphrase):
            throw StorageError(.wrongKey, "The store is encrypted with a raw key, not a passphrase.", file: file)
        case (.argon2id, .key):
            throw StorageError(.wrongKey, "The store is encrypted with a passphrase, not a raw key.", file: file)
        default: break
        }
        let keyEncryptionKey = try deriveKey(encryption)
        let computed = check(keyEncryptionKey)
        let matches = computed.withUnsafeBytes { a in
            keyCheck.withUnsafeBytes { b in a.count == b.count && sodium_memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
        guard matches else {
            throw StorageError(.wrongKey, "The key does not open this store (its key check differs).", file: file)
        }
        let associated = Array(encoded().prefix(Self.associatedSize))
        guard
            let dataKey = FileCipher.openKey(
                wrappedDataKey, nonce: wrapNonce, associated: associated, key: keyEncryptionKey)
        else {
            throw .corruption("The wrapped data key does not authenticate.", file: file, offset: 124)
        }
        return dataKey
    }

    /// The key-encryption key: the raw key itself, or Argon2id of the passphrase.
    private func deriveKey(_ encryption: StoreEncryption) throws(StorageError) -> GuardedKey {
        try Self.deriveKey(encryption, salt: salt, cost: cost)
    }

    /// The key-encryption key `encryption` gives: a raw key itself, or Argon2id v1.3 of a
    /// passphrase with `salt` (16 bytes) and `cost`. The encrypted dump derives its stream key
    /// the same way (docs/format/encryption.md, "Encrypted dump").
    ///
    /// - Throws: `invalidArgument` for a raw key that is not 32 bytes; `ioError` when guarded
    ///   memory or the derivation fails.
    package static func deriveKey(
        _ encryption: StoreEncryption, salt: [UInt8], cost: PassphraseCost
    ) throws(StorageError) -> GuardedKey {
        switch encryption {
        case .key(let bytes):
            guard bytes.count == GuardedKey.size else {
                throw StorageError(.invalidArgument, "An encryption key must be 32 bytes; this one is \(bytes.count).")
            }
            guard let key = GuardedKey(copying: bytes) else { throw memoryFailure() }
            return key
        case .passphrase(let text, _):
            var failed = false
            let key = GuardedKey { region in
                // A terminating zero keeps the pointer valid for an empty passphrase; it is not hashed.
                var passphrase = Array(text.utf8) + [0]
                defer { sodium_memzero(&passphrase, passphrase.count) }
                failed =
                    passphrase.withUnsafeBufferPointer { phrase in
                        salt.withUnsafeBufferPointer { salt in
                            phrase.withMemoryRebound(to: CChar.self) { chars in
                                crypto_pwhash(
                                    region.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(region.count),
                                    chars.baseAddress!, UInt64(chars.count - 1), salt.baseAddress!,
                                    cost.operations, Int(cost.memoryBytes), crypto_pwhash_ALG_ARGON2ID13)
                            }
                        }
                    } != 0
            }
            guard let key, !failed else {
                throw StorageError(.ioError, "Argon2id could not derive the key (out of memory for its \(cost.memoryBytes) bytes?).")
            }
            return key
        }
    }

    /// BLAKE2b-256 keyed by `key` over the label and the store identity.
    private func check(_ key: GuardedKey) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Self.checkSize)
        let input = Self.checkLabel + identity.bytes
        key.withPointer { keyBytes in
            _ = crypto_generichash(&output, output.count, input, UInt64(input.count), keyBytes, GuardedKey.size)
        }
        return output
    }

    private static func memoryFailure() -> StorageError {
        StorageError(.ioError, "libsodium could not allocate guarded memory for a key.")
    }

    // MARK: - Bytes

    /// The file's 180 bytes.
    package func encoded() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(Self.size)
        output.append(contentsOf: Self.magic)
        output.appendUInt32LE(Self.version)
        output.appendUInt32LE(0)
        output.appendIdentity(identity)
        output.appendUInt8(Self.cipher)
        output.appendUInt8(derivation.rawValue)
        output.appendUInt16LE(0)
        output.appendUInt64LE(cost.operations)
        output.appendUInt64LE(cost.memoryBytes)
        output.append(contentsOf: salt)
        output.append(contentsOf: keyCheck.isEmpty ? [UInt8](repeating: 0, count: Self.checkSize) : keyCheck)
        output.append(contentsOf: wrapNonce)
        output.append(contentsOf: wrappedDataKey.isEmpty ? [UInt8](repeating: 0, count: Self.wrappedSize) : wrappedDataKey)
        output.appendUInt64LE(Checksum.xxh3(output))
        return output
    }

    /// Decodes and checks an `ENCRYPTION` file.
    ///
    /// - Throws: `corruption` naming `file` and the offset of the first bad field.
    package static func decode(_ bytes: UnsafeRawBufferPointer, file: String) throws(StorageError) -> KeyEnvelope {
        try FormatHeader.require(
            bytes.count == size, "The ENCRYPTION file is \(bytes.count) bytes; it must be \(size).", file: file,
            offset: min(bytes.count, size))
        try FormatHeader.require(
            bytes.prefix(8).elementsEqual(magic), "The file does not start with the ENCRYPTION magic number.",
            file: file, offset: 0)
        try FormatHeader.verifyChecksum(bytes, covering: 0..<(size - 8), storedAt: size - 8, what: "ENCRYPTION file", file: file)
        var reader = ByteReader(bytes, offset: 8)
        let version = reader.readUInt32LE() ?? 0
        try FormatHeader.require(
            version == Self.version, "The ENCRYPTION file has format version \(version); this build reads 1.", file: file, offset: 8)
        let flags = reader.readUInt32LE() ?? 0
        try FormatHeader.require(flags == 0, "The ENCRYPTION file sets unknown flags \(flags).", file: file, offset: 12)
        guard let identity = reader.readBytes(StoreIdentity.size).flatMap({ StoreIdentity($0) }), !identity.isZero else {
            throw .corruption("The ENCRYPTION file's store identity is zero.", file: file, offset: 16)
        }
        let cipher = reader.readUInt8() ?? 0
        try FormatHeader.require(cipher == Self.cipher, "The ENCRYPTION file names unknown cipher \(cipher).", file: file, offset: 32)
        let rawDerivation = reader.readUInt8() ?? 0xFF
        guard let derivation = Derivation(rawValue: rawDerivation) else {
            throw .corruption("The ENCRYPTION file names unknown key derivation \(rawDerivation).", file: file, offset: 33)
        }
        let reserved = reader.readUInt16LE() ?? 1
        try FormatHeader.require(reserved == 0, "The ENCRYPTION file's reserved bytes are not zero.", file: file, offset: 34)
        let cost = PassphraseCost(operations: reader.readUInt64LE() ?? 0, memoryBytes: reader.readUInt64LE() ?? 0)
        let salt = Self.bytes(reader.readBytes(saltSize))
        switch derivation {
        case .rawKey:
            try FormatHeader.require(
                cost.operations == 0 && cost.memoryBytes == 0 && salt.allSatisfy { $0 == 0 },
                "A raw-key ENCRYPTION file carries derivation parameters.", file: file, offset: 36)
        case .argon2id:
            // A damaged file must not make an open spend unbounded memory or time.
            try FormatHeader.require(
                cost.isValid,
                "The ENCRYPTION file asks Argon2id for \(cost.operations) passes and \(cost.memoryBytes) bytes, "
                    + "outside 1-16 passes and 8 KiB-4 GiB.", file: file, offset: 36)
        }
        return KeyEnvelope(
            identity: identity, derivation: derivation, cost: cost, salt: salt,
            keyCheck: Self.bytes(reader.readBytes(checkSize)), wrapNonce: Self.bytes(reader.readBytes(FileCipher.nonceSize)),
            wrappedDataKey: Self.bytes(reader.readBytes(wrappedSize)))
    }

    private static func bytes(_ buffer: UnsafeRawBufferPointer?) -> [UInt8] {
        buffer.map { Array($0) } ?? []
    }
}
