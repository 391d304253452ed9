// Opening with the wrong key, no key, or a key for a plain store gives the documented error,
// and the key is checked before any data is read (docs/encryption.md, "What a caller does").

import StockpotCore
import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite struct EncryptionErrorTests {
    private func open(_ fileSystem: MemoryFileSystem, _ encryption: StoreEncryption?) throws(StorageError) -> StorageEngine {
        try StorageEngine.open(directory: "/store", options: tinyStoreOptions(encryption), fileSystem: fileSystem)
    }

    private func code(_ fileSystem: MemoryFileSystem, _ encryption: StoreEncryption?) -> StorageError.Code? {
        do {
            try open(fileSystem, encryption).close()
            return nil
        } catch {
            return error.code
        }
    }

    @Test func anEncryptedStoreOpensWithItsKeyOnly() throws {
        let fileSystem = MemoryFileSystem()
        let model = try makeTinyStore(fileSystem)
        #expect(code(fileSystem, nil) == .keyRequired)
        #expect(code(fileSystem, .key(Array(repeating: 7, count: 32))) == .wrongKey)
        #expect(code(fileSystem, .passphrase("not a raw key")) == .wrongKey)
        #expect(code(fileSystem, .key([1, 2, 3])) == .invalidArgument)
        #expect(outcomeOfOpening(fileSystem, model: model) == .unnoticed)
    }

    @Test func aPlainStoreRefusesAKey() throws {
        let fileSystem = MemoryFileSystem()
        let model = try makeTinyStore(fileSystem, encryption: nil)
        #expect(code(fileSystem, testEncryptionKey) == .notEncrypted)
        #expect(outcomeOfOpening(fileSystem, model: model, encryption: nil) == .unnoticed)
    }

    @Test func theWrongKeyIsToldBeforeAnyDataIsRead() throws {
        let fileSystem = MemoryFileSystem()
        try makeTinyStore(fileSystem)
        // With every other file destroyed, the key check still answers first.
        for name in try fileSystem.listDirectory("/store") where name != KeyEnvelope.fileName {
            try fileSystem.setFileContents("/store/" + name, [0xFF])
        }
        #expect(code(fileSystem, .key(Array(repeating: 9, count: 32))) == .wrongKey)
        #expect(code(fileSystem, testEncryptionKey) == .corruption)
    }

    @Test func aPassphraseStoreOpensWithThePassphrase() throws {
        let fileSystem = MemoryFileSystem()
        let cheap = PassphraseCost(operations: 1, memoryBytes: 64 << 10)
        let model = try makeTinyStore(fileSystem, encryption: .passphrase("correct horse", cost: cheap))
        #expect(code(fileSystem, .passphrase("correct horse!")) == .wrongKey)
        #expect(code(fileSystem, testEncryptionKey) == .wrongKey)
        // The cost written at creation is the one used; the one given at open is ignored.
        #expect(outcomeOfOpening(fileSystem, model: model, encryption: .passphrase("correct horse")) == .unnoticed)
        let envelope = try #require(fileSystem.fileContents("/store/" + KeyEnvelope.fileName))
        let decoded = try envelope.withUnsafeBytes { raw throws(StorageError) in try KeyEnvelope.decode(raw, file: "ENCRYPTION") }
        #expect(decoded.derivation == .argon2id && decoded.cost == cheap && decoded.salt.contains { $0 != 0 })
    }

    @Test func aPassphraseCostOutOfRangeIsRefused() throws {
        let fileSystem = MemoryFileSystem()
        let error = thrownStorageError {
            _ = try open(fileSystem, .passphrase("x", cost: PassphraseCost(operations: 1, memoryBytes: 1 << 40)))
        }
        #expect(error?.code == .invalidArgument)
    }

    /// A damaged header asking Argon2id for more than 4 GiB is refused before any allocation.
    @Test func anEnvelopeAskingForUnboundedMemoryIsCorruption() throws {
        let fileSystem = MemoryFileSystem()
        try makeTinyStore(fileSystem, encryption: .passphrase("p", cost: PassphraseCost(operations: 1, memoryBytes: 64 << 10)))
        var bytes = try #require(fileSystem.fileContents("/store/" + KeyEnvelope.fileName))
        bytes.replaceSubrange(44..<52, with: withUnsafeBytes(of: UInt64(1 << 40).littleEndian, Array.init))
        bytes.replaceSubrange(172..<180, with: withUnsafeBytes(of: Checksum.xxh3(Array(bytes[0..<172])).littleEndian, Array.init))
        try fileSystem.setFileContents("/store/" + KeyEnvelope.fileName, bytes)
        let error = thrownStorageError { _ = try open(fileSystem, .passphrase("p")) }
        #expect(error?.code == .corruption)
        #expect(error?.offset == 36)
    }

    @Test func nothingWrittenIsReadableInTheFiles() throws {
        for encrypted in [false, true] {
            let fileSystem = MemoryFileSystem()
            try makeTinyStore(fileSystem, encryption: testEncryption(encrypted))
            var seen: Set<String> = []
            for name in try fileSystem.listDirectory("/store") {
                let text = String(decoding: fileSystem.fileContents("/store/" + name) ?? [], as: UTF8.self)
                for marker in ["key-1", "Account", "blob-value", "upper state"] where text.contains(marker) { seen.insert(marker) }
            }
            // The plain store shows the uncompressed markers (keys, the blob, the snapshot: so
            // the search works); the encrypted one shows none of them.
            let expected: Set<String> = encrypted ? [] : ["key-1", "blob-value", "upper state"]
            #expect(seen.intersection(["key-1", "blob-value", "upper state"]) == expected, "encrypted \(encrypted): found \(seen.sorted())")
            if encrypted { #expect(seen.isEmpty, "found \(seen.sorted())") }
        }
    }
}
