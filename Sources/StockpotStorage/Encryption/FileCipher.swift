// Sealing and opening what an encrypted store writes: log records and whole files, with
// XChaCha20-Poly1305, random 192-bit nonces and associated data binding each to its place
// (docs/encryption.md, "The construction"; docs/format/encryption.md).

import CSodium
import StockpotCore
import Synchronization

/// A store's data key with its identity: seals records and files for that store only.
///
/// Thread-safe: sealing and opening may run on any number of threads at once.
package final class FileCipher: Sendable {
    /// The store the cipher's files belong to.
    package let identity: StoreIdentity
    private let dataKey: GuardedKey
    private let nonces = Mutex(NoncePool())

    package static let nonceSize = 24
    package static let tagSize = 16
    /// The bytes a sealed record adds to its plain record: sealed length, nonce and tag.
    package static let recordOverhead = 4 + nonceSize + tagSize
    /// The envelope's header before the ciphertext.
    package static let envelopeHeaderSize = 64
    /// `STKPENC\0`.
    package static let envelopeMagic: [UInt8] = [0x53, 0x54, 0x4B, 0x50, 0x45, 0x4E, 0x43, 0x00]
    package static let envelopeVersion: UInt32 = 1

    /// What kind of whole file an envelope holds; the raw values are written in it.
    package enum FileKind: UInt8, Sendable {
        case manifest = 1
        case hint = 2
        case snapshot = 3
        case dictionary = 4
        case blob = 5
    }

    package init(identity: StoreIdentity, dataKey: GuardedKey) {
        self.identity = identity
        self.dataKey = dataKey
    }

    /// The `ENCRYPTION` file that holds this cipher's data key wrapped under the key
    /// `encryption` gives: what rekey writes.
    package func envelope(under encryption: StoreEncryption) throws(StorageError) -> KeyEnvelope {
        try KeyEnvelope.sealing(dataKey, identity: identity, under: encryption)
    }

    // MARK: - Records

    /// Appends a sealed record for `offset` of segment `segment` whose plain record
    /// `writePlain` appends (exactly `plainLength` bytes); the plain bytes are encrypted where
    /// they were written, so no copy of them is made.
    ///
    /// - Complexity: O(plainLength).
    package func sealRecord(
        plainLength: Int, segment: UInt64, offset: Int, to output: inout [UInt8], _ writePlain: (inout [UInt8]) -> Void
    ) {
        let sealedLength = Self.nonceSize + plainLength + Self.tagSize
        let start = output.count
        output.reserveCapacity(start + 4 + sealedLength)
        output.appendUInt32LE(UInt32(sealedLength))
        nonces.withLock { $0.append(to: &output) }
        writePlain(&output)
        precondition(output.count == start + 4 + Self.nonceSize + plainLength, "the plain record is not the length announced")
        output.append(contentsOf: repeatElement(0, count: Self.tagSize))
        withRecordAssociatedData(segment: segment, offset: offset, sealedLength: sealedLength) { associated in
            output.withUnsafeMutableBytes { raw in
                let nonce = raw.baseAddress!.advanced(by: start + 4).assumingMemoryBound(to: UInt8.self)
                let text = raw.baseAddress!.advanced(by: start + 4 + Self.nonceSize).assumingMemoryBound(to: UInt8.self)
                dataKey.withPointer { key in
                    // libsodium encrypts in place when the message and the ciphertext coincide.
                    _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
                        text, nil, text, UInt64(plainLength), associated.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        UInt64(associated.count), nil, nonce, key)
                }
            }
        }
    }

    /// What ``openRecord(_:at:segment:_:)`` found at an offset.
    package enum OpenedRecord {
        /// The record authenticated; its plain bytes were handed to the body, and it occupies
        /// `length` bytes of the segment.
        case record(length: Int)
        /// A sealed length of 0: the start of a zero tail (or damage; the caller checks).
        case zeroLength
        /// The bytes end before the sealed record does.
        case incomplete
        /// The bytes are not a sealed record of this store at this place.
        case invalid(String)
    }

    /// Opens the sealed record at `offset` of `bytes`, which starts at `segmentOffset` of
    /// segment `segment`, and calls `body` with its plain bytes, valid only during the call,
    /// when it authenticates. Never traps, whatever the bytes.
    package func openRecord(
        _ bytes: UnsafeRawBufferPointer, at offset: Int, segment: UInt64, segmentOffset: Int,
        _ body: (UnsafeRawBufferPointer) throws(StorageError) -> Void
    ) throws(StorageError) -> OpenedRecord {
        guard offset >= 0, offset <= bytes.count else { return .invalid("The record offset \(offset) is outside the segment.") }
        guard let sealedLength = bytes.getUInt32LE(at: offset).map(Int.init) else { return .incomplete }
        if sealedLength == 0 { return .zeroLength }
        let plainLength = sealedLength - Self.nonceSize - Self.tagSize
        guard plainLength >= RecordCodec.overhead + 1 else {
            return .invalid("The sealed length \(sealedLength) is below the minimum.")
        }
        guard bytes.count - offset - 4 >= sealedLength else { return .incomplete }
        return try withUnsafeTemporaryAllocation(byteCount: plainLength, alignment: 8) {
            (plain) throws(StorageError) -> OpenedRecord in
            let opened = withRecordAssociatedData(segment: segment, offset: segmentOffset, sealedLength: sealedLength) { associated in
                dataKey.withPointer { key in
                    let base = bytes.baseAddress!.advanced(by: offset + 4).assumingMemoryBound(to: UInt8.self)
                    return crypto_aead_xchacha20poly1305_ietf_decrypt(
                        plain.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil,
                        base.advanced(by: Self.nonceSize), UInt64(plainLength + Self.tagSize),
                        associated.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(associated.count), base, key) == 0
                }
            }
            guard opened else { return .invalid("The sealed record does not authenticate.") }
            try body(UnsafeRawBufferPointer(plain))
            return .record(length: 4 + sealedLength)
        }
    }

    /// The 36 bytes of a sealed record's associated data, on the stack.
    private func withRecordAssociatedData<R>(
        segment: UInt64, offset: Int, sealedLength: Int, _ body: (UnsafeRawBufferPointer) -> R
    ) -> R {
        withUnsafeTemporaryAllocation(byteCount: 36, alignment: 8) { buffer in
            identity.bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
            buffer.storeBytes(of: segment.littleEndian, toByteOffset: 16, as: UInt64.self)
            buffer.storeBytes(of: UInt64(offset).littleEndian, toByteOffset: 24, as: UInt64.self)
            buffer.storeBytes(of: UInt32(sealedLength).littleEndian, toByteOffset: 32, as: UInt32.self)
            return body(UnsafeRawBufferPointer(buffer))
        }
    }

    // MARK: - Whole files

    /// `plain` (a whole file in its own format) sealed in an envelope for file `number` of
    /// `kind` (0 for the manifest).
    package func sealFile(_ plain: [UInt8], kind: FileKind, number: UInt64) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(Self.envelopeHeaderSize + plain.count + Self.tagSize)
        output.append(contentsOf: Self.envelopeMagic)
        output.appendUInt32LE(Self.envelopeVersion)
        output.appendUInt8(kind.rawValue)
        output.append(contentsOf: [0, 0, 0])
        output.appendUInt64LE(number)
        output.appendIdentity(identity)
        nonces.withLock { $0.append(to: &output) }
        let header = output
        output.append(
            contentsOf: dataKey.withPointer { key in
                plain.withUnsafeBytes { plain in
                    Self.seal(plain, nonce: Array(header[40..<64]), associated: header, key: key)
                }
            })
        return output
    }

    /// The plain file inside the envelope `bytes` of file `number` of `kind`.
    ///
    /// - Throws: `corruption` naming `file`: a short file or a header that names another
    ///   kind, number or store (offset 0), or a ciphertext that does not authenticate (offset 64).
    package func openFile(_ bytes: [UInt8], kind: FileKind, number: UInt64, file: String) throws(StorageError) -> [UInt8] {
        guard bytes.count >= Self.envelopeHeaderSize + Self.tagSize else {
            throw .corruption("The encrypted file is \(bytes.count) bytes, shorter than its envelope.", file: file, offset: 0)
        }
        let header = Array(bytes[0..<Self.envelopeHeaderSize])
        let matches = header.withUnsafeBytes { raw in
            raw.prefix(8).elementsEqual(Self.envelopeMagic) && raw.getUInt32LE(at: 8) == Self.envelopeVersion
                && raw[12] == kind.rawValue && raw[13] == 0 && raw[14] == 0 && raw[15] == 0
                && raw.getUInt64LE(at: 16) == number && raw.getIdentity(at: 24) == identity
        }
        guard matches else {
            throw .corruption(
                "The file is not an encrypted \(kind) file \(number) of this store (envelope header).", file: file, offset: 0)
        }
        let plainLength = bytes.count - Self.envelopeHeaderSize - Self.tagSize
        // One spare byte keeps the output pointer valid for an empty file; it is dropped below.
        var plain = [UInt8](repeating: 0, count: plainLength + 1)
        let opened = dataKey.withPointer { key in
            bytes.withUnsafeBytes { raw in
                plain.withUnsafeMutableBytes { output in
                    let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    return crypto_aead_xchacha20poly1305_ietf_decrypt(
                        output.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil,
                        base.advanced(by: Self.envelopeHeaderSize), UInt64(plainLength + Self.tagSize),
                        base, UInt64(Self.envelopeHeaderSize), base.advanced(by: 40), key) == 0
                }
            }
        }
        guard opened else {
            throw .corruption("The encrypted file does not authenticate.", file: file, offset: Self.envelopeHeaderSize)
        }
        plain.removeLast()
        return plain
    }

    // MARK: - Primitives

    /// `plain` sealed with `key`: ciphertext followed by the tag.
    static func seal(
        _ plain: UnsafeRawBufferPointer, nonce: [UInt8], associated: [UInt8], key: UnsafePointer<UInt8>
    ) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: plain.count + tagSize)
        output.withUnsafeMutableBufferPointer { out in
            _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
                out.baseAddress!, nil, plain.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(plain.count),
                associated, UInt64(associated.count), nil, nonce, key)
        }
        return output
    }

    /// `plain` sealed with the guarded `key`.
    static func seal(_ plain: UnsafeRawBufferPointer, nonce: [UInt8], associated: [UInt8], key: GuardedKey) -> [UInt8] {
        key.withPointer { seal(plain, nonce: nonce, associated: associated, key: $0) }
    }

    /// A key unwrapped from `wrapped` (32 bytes sealed with `key`) straight into guarded
    /// memory, or nil when it does not authenticate.
    static func openKey(_ wrapped: [UInt8], nonce: [UInt8], associated: [UInt8], key: GuardedKey) -> GuardedKey? {
        guard wrapped.count == GuardedKey.size + tagSize, nonce.count == nonceSize else { return nil }
        var opened = false
        let result = GuardedKey { region in
            key.withPointer { keyBytes in
                opened =
                    crypto_aead_xchacha20poly1305_ietf_decrypt(
                        region.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil, wrapped, UInt64(wrapped.count),
                        associated, UInt64(associated.count), nonce, keyBytes) == 0
            }
        }
        return opened ? result : nil
    }

    /// `count` random bytes from libsodium's generator.
    package static func randomBytes(_ count: Int) -> [UInt8] {
        _ = Sodium.ready
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, count) }
        return bytes
    }

    /// A fresh random nonce.
    package static func randomNonce() -> [UInt8] { randomBytes(nonceSize) }
}

/// Random bytes drawn from the system's generator 170 nonces at a time (one system call per
/// refill instead of one per record) and handed out a nonce at a time; each byte is handed
/// out once.
private struct NoncePool {
    private var buffer: [UInt8] = []
    private var position = 0
    private static let refillBytes = 4080

    /// Appends a fresh nonce to `output`.
    mutating func append(to output: inout [UInt8]) {
        if position + FileCipher.nonceSize > buffer.count {
            buffer = FileCipher.randomBytes(Self.refillBytes)
            position = 0
        }
        output.append(contentsOf: buffer[position..<position + FileCipher.nonceSize])
        position += FileCipher.nonceSize
    }
}

extension FileCipher.FileKind: CustomStringConvertible {
    package var description: String {
        switch self {
        case .manifest: "manifest"
        case .hint: "hint"
        case .snapshot: "snapshot"
        case .dictionary: "dictionary"
        case .blob: "blob"
        }
    }
}
