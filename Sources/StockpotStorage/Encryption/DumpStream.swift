// The encrypted dump's bytes (docs/format/encryption.md, "Encrypted dump"): a 72-byte header
// with the key derivation and libsodium's secretstream header, then length-prefixed
// crypto_secretstream_xchacha20poly1305 messages, the last one tagged FINAL.

import CSodium
import StockpotCore

/// The encrypted dump format: its constants, a sealer for writers and an opener for readers.
package enum DumpStream {
    /// `STKPDMP\0`.
    package static let magic: [UInt8] = [0x53, 0x54, 0x4B, 0x50, 0x44, 0x4D, 0x50, 0x00]
    package static let version: UInt32 = 1
    /// Magic, version, derivation, reserved, limits, salt and the 24-byte secretstream header.
    package static let headerSize = 72
    /// The most plaintext bytes one message carries.
    package static let chunkBytes = 64 << 10
    /// What a message adds to its plaintext: the encrypted tag byte and the 16-byte MAC.
    package static let messageOverhead = 17
    static let streamHeaderSize = 24
    static let saltSize = 16

    /// Whether `prefix` (the first bytes of an input) starts an encrypted dump.
    package static func isEncrypted(_ prefix: some Collection<UInt8>) -> Bool {
        prefix.count >= magic.count && prefix.prefix(magic.count).elementsEqual(magic)
    }

    /// The stream state with its key schedule, in guarded memory, wiped when freed.
    final class State: @unchecked Sendable {
        // @unchecked: one sealer or opener owns it and uses it from one thread at a time.
        let pointer: UnsafeMutablePointer<crypto_secretstream_xchacha20poly1305_state>

        init?() {
            guard Sodium.ready,
                let region = sodium_malloc(MemoryLayout<crypto_secretstream_xchacha20poly1305_state>.size)
            else { return nil }
            pointer = region.bindMemory(to: crypto_secretstream_xchacha20poly1305_state.self, capacity: 1)
        }

        deinit { sodium_free(pointer) }
    }

    /// Seals a dump's plaintext into messages. Not thread-safe: one writer.
    package final class Sealer {
        /// The 72 header bytes, written before the first message.
        package let header: [UInt8]
        private let state: State

        /// A new stream keyed by `encryption`: a raw key is the stream key; a passphrase is
        /// stretched with Argon2id at its cost and a fresh salt.
        ///
        /// - Throws: `invalidArgument` for a raw key that is not 32 bytes or a cost out of
        ///   range; `ioError` when guarded memory or the derivation fails.
        package init(encryption: StoreEncryption) throws(StorageError) {
            var derivation = KeyEnvelope.Derivation.rawKey
            var cost = PassphraseCost(operations: 0, memoryBytes: 0)
            var salt = [UInt8](repeating: 0, count: DumpStream.saltSize)
            if case .passphrase(_, let passphraseCost) = encryption {
                guard passphraseCost.isValid else {
                    throw StorageError(.invalidArgument, "A passphrase cost must have 1 to 16 operations and 8 KiB to 4 GiB of memory.")
                }
                derivation = .argon2id
                cost = passphraseCost
                salt = FileCipher.randomBytes(DumpStream.saltSize)
            }
            let key = try KeyEnvelope.deriveKey(encryption, salt: salt, cost: cost)
            guard let state = State() else {
                throw StorageError(.ioError, "libsodium could not allocate guarded memory for the dump's stream state.")
            }
            self.state = state
            var streamHeader = [UInt8](repeating: 0, count: DumpStream.streamHeaderSize)
            key.withPointer { keyBytes in
                _ = crypto_secretstream_xchacha20poly1305_init_push(state.pointer, &streamHeader, keyBytes)
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(DumpStream.headerSize)
            bytes.append(contentsOf: DumpStream.magic)
            bytes.appendUInt32LE(DumpStream.version)
            bytes.appendUInt8(derivation.rawValue)
            bytes.append(contentsOf: [0, 0, 0])
            bytes.appendUInt64LE(cost.operations)
            bytes.appendUInt64LE(cost.memoryBytes)
            bytes.append(contentsOf: salt)
            bytes.append(contentsOf: streamHeader)
            header = bytes
        }

        /// One message: `chunk` (at most ``DumpStream/chunkBytes``) sealed, preceded by its
        /// length (u32 LE), tagged FINAL when `final`.
        package func seal(_ chunk: UnsafeRawBufferPointer, final: Bool) -> [UInt8] {
            precondition(chunk.count <= DumpStream.chunkBytes, "a dump message holds at most 64 KiB")
            let sealedCount = chunk.count + DumpStream.messageOverhead
            var output = [UInt8](repeating: 0, count: 4 + sealedCount)
            output.withUnsafeMutableBytes { out in
                out.storeBytes(of: UInt32(sealedCount).littleEndian, toByteOffset: 0, as: UInt32.self)
                let tag = final ? crypto_secretstream_xchacha20poly1305_tag_final() : crypto_secretstream_xchacha20poly1305_tag_message()
                _ = crypto_secretstream_xchacha20poly1305_push(
                    state.pointer, out.baseAddress!.advanced(by: 4).assumingMemoryBound(to: UInt8.self), nil,
                    chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(chunk.count), nil, 0, tag)
            }
            return output
        }
    }

    /// Opens a dump's messages in order. Not thread-safe: one reader, which may be another
    /// thread than the one that made it.
    package final class Opener: @unchecked Sendable {
        // @unchecked: its state is used by one thread at a time (the reader it is handed to).
        private let state: State
        /// Whether the FINAL message has been opened (nothing may follow it).
        package private(set) var finished = false

        /// Reads the 72-byte `header` and derives the stream key from `encryption` with its
        /// parameters.
        ///
        /// - Throws: `corruption` (offset in the dump) for a header that is not an encrypted
        ///   dump's or asks for limits out of range; `wrongKey` when a raw key opens a
        ///   passphrase dump or the other way round, or when the key does not open the first
        ///   message (see ``open(_:)``); `invalidArgument`, `ioError` as the sealer.
        package init(header: [UInt8], encryption: StoreEncryption, file: String) throws(StorageError) {
            guard header.count == DumpStream.headerSize, DumpStream.isEncrypted(header) else {
                throw .corruption("The input is not an encrypted dump (no STKPDMP header).", file: file, offset: 0)
            }
            let fields = header.withUnsafeBytes { raw in
                (
                    version: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian,
                    derivation: raw[12],
                    reserved: raw[13] | raw[14] | raw[15],
                    operations: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian,
                    memory: raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self).littleEndian
                )
            }
            guard fields.version == DumpStream.version else {
                throw .corruption("The encrypted dump has format version \(fields.version); this build reads 1.", file: file, offset: 8)
            }
            guard let derivation = KeyEnvelope.Derivation(rawValue: fields.derivation), fields.reserved == 0 else {
                throw .corruption("The encrypted dump names unknown key derivation \(fields.derivation).", file: file, offset: 12)
            }
            let salt = Array(header[32..<48])
            let cost = PassphraseCost(operations: fields.operations, memoryBytes: fields.memory)
            switch (derivation, encryption) {
            case (.rawKey, .passphrase):
                throw StorageError(.wrongKey, "The dump is encrypted with a raw key, not a passphrase.", file: file)
            case (.argon2id, .key):
                throw StorageError(.wrongKey, "The dump is encrypted with a passphrase, not a raw key.", file: file)
            case (.rawKey, _):
                guard fields.operations == 0, fields.memory == 0, salt.allSatisfy({ $0 == 0 }) else {
                    throw .corruption("A raw-key dump header carries derivation parameters.", file: file, offset: 16)
                }
            case (.argon2id, _):
                // A damaged header must not make a restore spend unbounded memory or time.
                guard cost.isValid else {
                    throw .corruption(
                        "The dump asks Argon2id for \(cost.operations) passes and \(cost.memoryBytes) bytes, outside 1-16 passes and 8 KiB-4 GiB.",
                        file: file, offset: 16)
                }
            }
            let key = try KeyEnvelope.deriveKey(encryption, salt: salt, cost: cost)
            guard let state = State() else {
                throw StorageError(.ioError, "libsodium could not allocate guarded memory for the dump's stream state.")
            }
            self.state = state
            let streamHeader = Array(header[48..<72])
            let started = key.withPointer { keyBytes in
                crypto_secretstream_xchacha20poly1305_init_pull(state.pointer, streamHeader, keyBytes)
            }
            guard started == 0 else {
                throw .corruption("The encrypted dump's stream header is invalid.", file: file, offset: 48)
            }
        }

        /// The largest sealed message (the length field's value) a reader accepts.
        package static let maxSealedBytes = DumpStream.chunkBytes + DumpStream.messageOverhead

        /// The plaintext of the next message, `sealed` (without its length field).
        ///
        /// - Throws: `corruption` when it does not authenticate (a changed, reordered, removed
        ///   or foreign message), or when a message follows the FINAL one.
        package func open(_ sealed: UnsafeRawBufferPointer, file: String, offset: Int) throws(StorageError) -> [UInt8] {
            guard !finished else {
                throw .corruption("The encrypted dump goes on after its final message.", file: file, offset: offset)
            }
            guard sealed.count >= DumpStream.messageOverhead, sealed.count <= Self.maxSealedBytes else {
                throw .corruption("An encrypted dump message is \(sealed.count) bytes long.", file: file, offset: offset)
            }
            var plain = [UInt8](repeating: 0, count: sealed.count - DumpStream.messageOverhead)
            var tag: UInt8 = 0
            let status = plain.withUnsafeMutableBufferPointer { out in
                crypto_secretstream_xchacha20poly1305_pull(
                    state.pointer, out.baseAddress, nil, &tag,
                    sealed.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(sealed.count), nil, 0)
            }
            guard status == 0 else {
                throw .corruption(
                    "An encrypted dump message does not authenticate (the dump was changed, cut or reordered, or the key is not the dump's).",
                    file: file, offset: offset)
            }
            if tag == crypto_secretstream_xchacha20poly1305_tag_final() { finished = true }
            return plain
        }
    }
}
