// The bytes of docs/format/encryption.md: the ENCRYPTION file's layout, a sealed record and a
// sealed-file envelope, each opened here with libsodium directly, from the document's
// description alone (associated data and offsets), not through the code under test.

import CSodium
import StockpotCore
import Testing
@testable import StockpotStorage

@Suite struct EncryptionGoldenTests {
    static let identity = StoreIdentity(Array(0..<16))!
    static let dataKey: [UInt8] = Array(32..<64)

    private func cipher() throws -> FileCipher {
        FileCipher(identity: Self.identity, dataKey: try #require(GuardedKey(copying: Self.dataKey)))
    }

    /// XChaCha20-Poly1305-IETF decryption of `sealed` (ciphertext and tag) with libsodium.
    private func open(_ sealed: [UInt8], nonce: [UInt8], associated: [UInt8], key: [UInt8]) -> [UInt8]? {
        var plain = [UInt8](repeating: 0, count: max(1, sealed.count - 16))
        let result = crypto_aead_xchacha20poly1305_ietf_decrypt(
            &plain, nil, nil, sealed, UInt64(sealed.count), associated, UInt64(associated.count), nonce, key)
        return result == 0 ? Array(plain.prefix(sealed.count - 16)) : nil
    }

    @Test func theEncryptionFileHasTheDocumentedLayout() throws {
        let rawKey: [UInt8] = Array(repeating: 0x42, count: 32)
        let (envelope, dataKey) = try KeyEnvelope.create(identity: Self.identity, encryption: .key(rawKey))
        let bytes = envelope.encoded()
        #expect(bytes.count == 180)
        #expect(Array(bytes[0..<8]) == [0x53, 0x54, 0x4B, 0x50, 0x4B, 0x45, 0x59, 0x00])
        #expect(Array(bytes[8..<16]) == [1, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(bytes[16..<32]) == Self.identity.bytes)
        #expect(bytes[32] == 1 && bytes[33] == 0 && bytes[34] == 0 && bytes[35] == 0)
        #expect(bytes[36..<68].allSatisfy { $0 == 0 }, "a raw key has no cost or salt")
        // The key check: BLAKE2b-256 keyed by the raw key over the label and the identity.
        var check = [UInt8](repeating: 0, count: 32)
        let input = Array("stockpot key check".utf8) + Self.identity.bytes
        _ = crypto_generichash(&check, 32, input, UInt64(input.count), rawKey, 32)
        #expect(Array(bytes[68..<100]) == check)
        // The wrapped data key opens with the raw key, nonce at 100, associated data 0..<100.
        let unwrapped = open(Array(bytes[124..<172]), nonce: Array(bytes[100..<124]), associated: Array(bytes[0..<100]), key: rawKey)
        #expect(unwrapped == dataKey.withBytes { Array($0) })
        #expect(bytes.withUnsafeBytes { $0.getUInt64LE(at: 172) } == Checksum.xxh3(Array(bytes[0..<172])))
        let decoded = try bytes.withUnsafeBytes { raw throws(StorageError) in try KeyEnvelope.decode(raw, file: "ENCRYPTION") }
        #expect(decoded == envelope)
    }

    /// segment.md's worked example record (a put of "k1" = "{}", sequence 5) sealed at offset
    /// 48 of segment 7.
    @Test func aSealedRecordIsThePlainRecordSealedForItsPlace() throws {
        let plainHeader = RecordHeader(tag: .put, flags: .batchEnd, dictionaryID: 0, sequence: 5, keyLength: 2, storedLength: 2, originalLength: 2)
        var plain: [UInt8] = []
        let key: [UInt8] = [0x6B, 0x31]
        let value: [UInt8] = [0x7B, 0x7D]
        key.withUnsafeBytes { k in value.withUnsafeBytes { v in _ = RecordCodec.append(plainHeader, key: k, storedValue: v, to: &plain) } }
        #expect(plain.count == 40)
        let layout = SegmentRecords(cipher: try cipher(), segment: 7)
        var sealed: [UInt8] = []
        let (_, length) = key.withUnsafeBytes { k in
            value.withUnsafeBytes { v in layout.append(plainHeader, key: k, storedValue: v, at: 48, to: &sealed) }
        }
        #expect(length == 84 && sealed.count == 84)
        #expect(Array(sealed[0..<4]) == [80, 0, 0, 0])
        var associated = Self.identity.bytes
        associated.appendUInt64LE(7)
        associated.appendUInt64LE(48)
        associated.appendUInt32LE(80)
        #expect(open(Array(sealed[28...]), nonce: Array(sealed[4..<28]), associated: associated, key: Self.dataKey) == plain)
        // At another offset the same bytes do not authenticate.
        var elsewhere = Self.identity.bytes
        elsewhere.appendUInt64LE(7)
        elsewhere.appendUInt64LE(49)
        elsewhere.appendUInt32LE(80)
        #expect(open(Array(sealed[28...]), nonce: Array(sealed[4..<28]), associated: elsewhere, key: Self.dataKey) == nil)
        // And the reader gives back the plain record's fields.
        var segment = [UInt8](repeating: 0, count: 48) + sealed
        var decoded: (RecordHeader, [UInt8], [UInt8])?
        let found = try segment.withUnsafeMutableBytes { raw throws(StorageError) in
            try layout.decode(UnsafeRawBufferPointer(raw), at: 48) { header, k, v throws(StorageError) in decoded = (header, Array(k), Array(v)) }
        }
        #expect(found == .record(length: 84))
        #expect(decoded?.0.sequence == 5 && decoded?.1 == key && decoded?.2 == value)
        segment[48 + 30] ^= 1
        let damaged = try segment.withUnsafeBytes { raw throws(StorageError) in try layout.decode(raw, at: 48) { _, _, _ throws(StorageError) in } }
        #expect(damaged != .record(length: 84))
    }

    @Test func anEnvelopeHasTheDocumentedHeader() throws {
        let plain: [UInt8] = Array("a snapshot's bytes".utf8)
        let sealed = try cipher().sealFile(plain, kind: .snapshot, number: 9)
        #expect(sealed.count == 64 + plain.count + 16)
        #expect(Array(sealed[0..<8]) == [0x53, 0x54, 0x4B, 0x50, 0x45, 0x4E, 0x43, 0x00])
        #expect(Array(sealed[8..<16]) == [1, 0, 0, 0, 3, 0, 0, 0])
        #expect(Array(sealed[16..<24]) == [9, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(sealed[24..<40]) == Self.identity.bytes)
        #expect(open(Array(sealed[64...]), nonce: Array(sealed[40..<64]), associated: Array(sealed[0..<64]), key: Self.dataKey) == plain)
        #expect(try cipher().openFile(sealed, kind: .snapshot, number: 9, file: "s") == plain)
        #expect(thrownStorageError { _ = try cipher().openFile(sealed, kind: .snapshot, number: 10, file: "s") }?.offset == 0)
        #expect(thrownStorageError { _ = try cipher().openFile(sealed, kind: .hint, number: 9, file: "s") }?.offset == 0)
    }
}
