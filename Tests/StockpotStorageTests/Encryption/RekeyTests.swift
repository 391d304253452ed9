// Rekey rewrites only ENCRYPTION: the new key opens the store, the old one no longer does, no
// data byte changes, and a power cut at any fsync leaves a store that one of the two keys opens
// whole (docs/encryption.md, "Rekey, rotation, encrypt and decrypt").

import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite struct RekeyTests {
    private let newKey = StoreEncryption.key(Array(repeating: 0xA5, count: 32))

    @Test func theNewKeyOpensTheStoreAndTheOldOneNoLonger() throws {
        let fileSystem = MemoryFileSystem()
        let model = try makeTinyStore(fileSystem)
        let before = try fileSystem.listDirectory("/store").filter { $0 != KeyEnvelope.fileName }
            .map { ($0, fileSystem.fileContents("/store/" + $0)) }
        let engine = try StorageEngine.open(directory: "/store", options: tinyStoreOptions(testEncryptionKey), fileSystem: fileSystem)
        try engine.rekey(to: newKey)
        try engine.close()
        let after = try fileSystem.listDirectory("/store").filter { $0 != KeyEnvelope.fileName }
            .map { ($0, fileSystem.fileContents("/store/" + $0)) }
        // The close may write nothing else: no data file changed.
        #expect(before.map(\.0) == after.map(\.0))
        #expect(zip(before, after).allSatisfy { $0.1 == $1.1 })
        #expect(outcomeOfOpening(fileSystem, model: model, encryption: newKey) == .unnoticed)
        let error = thrownStorageError {
            _ = try StorageEngine.open(directory: "/store", options: tinyStoreOptions(testEncryptionKey), fileSystem: fileSystem)
        }
        #expect(error?.code == .wrongKey)
    }

    @Test func aKeyCanBecomeAPassphraseAndBack() throws {
        let fileSystem = MemoryFileSystem()
        let model = try makeTinyStore(fileSystem)
        let passphrase = StoreEncryption.passphrase("long walk", cost: PassphraseCost(operations: 1, memoryBytes: 64 << 10))
        var engine = try StorageEngine.open(directory: "/store", options: tinyStoreOptions(testEncryptionKey), fileSystem: fileSystem)
        try engine.rekey(to: passphrase)
        try engine.close()
        #expect(outcomeOfOpening(fileSystem, model: model, encryption: passphrase) == .unnoticed)
        engine = try StorageEngine.open(directory: "/store", options: tinyStoreOptions(passphrase), fileSystem: fileSystem)
        try engine.rekey(to: testEncryptionKey)
        try engine.close()
        #expect(outcomeOfOpening(fileSystem, model: model) == .unnoticed)
    }

    @Test func aPlainStoreHasNoKeyToChange() throws {
        let fileSystem = MemoryFileSystem()
        try makeTinyStore(fileSystem, encryption: nil)
        let engine = try StorageEngine.open(directory: "/store", options: tinyStoreOptions(nil), fileSystem: fileSystem)
        defer { try? engine.close() }
        #expect(thrownStorageError { try engine.rekey(to: testEncryptionKey) }?.code == .notEncrypted)
    }

    @Test func aPowerCutAtAnyFsyncOfARekeyLeavesOneKeyWorking() throws {
        let seedStore = MemoryFileSystem()
        let model = try makeTinyStore(seedStore)
        let counting = FaultInjectingFileSystem(wrapping: seedStore.durableCopy(), only: [.sync, .syncDirectory])
        let reference = try StorageEngine.open(directory: "/store", options: tinyStoreOptions(testEncryptionKey), fileSystem: counting)
        let before = counting.callCount
        try reference.rekey(to: newKey)
        let syncs = counting.callCount - before
        try reference.close()
        #expect(syncs >= 2)
        var sawOld = false
        var sawNew = false
        for cut in 0...syncs {
            let memory = seedStore.durableCopy()
            let faulty = FaultInjectingFileSystem(wrapping: memory, only: [.sync, .syncDirectory])
            let engine = try StorageEngine.open(directory: "/store", options: tinyStoreOptions(testEncryptionKey), fileSystem: faulty)
            faulty.failCall(faulty.callCount + cut + 1, with: .ioError, mode: .persistent)
            try? engine.rekey(to: newKey)
            memory.simulatePowerLoss()
            _ = engine
            let old = outcomeOfOpening(memory, model: model, encryption: testEncryptionKey)
            let new = outcomeOfOpening(memory, model: model, encryption: newKey)
            #expect((old == .unnoticed) != (new == .unnoticed), "cut after fsync \(cut): old key \(old), new key \(new)")
            sawOld = sawOld || old == .unnoticed
            sawNew = sawNew || new == .unnoticed
        }
        #expect(sawOld && sawNew, "the cuts must cover both outcomes")
    }
}
