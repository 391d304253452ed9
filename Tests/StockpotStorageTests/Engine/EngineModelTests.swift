// Model-based random tests: random puts, deletes, batches, compactions, snapshots, closes and
// reopens against a plain dictionary; the engine must agree with the model after every step.

import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite struct EngineModelTests {
    /// The upper layer the tests play: it keeps a copy of every key and value, saves it in
    /// snapshots, and rebuilds it at open from the snapshot and the replayed changes. After
    /// every reopen it must equal the model, which checks the replay contract end to end.
    private static func encode(_ state: [[UInt8]: [UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (key, value) in state.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            for part in [key, value] {
                withUnsafeBytes(of: UInt32(part.count).littleEndian) { bytes += $0 }
                bytes += part
            }
        }
        return bytes
    }

    private static func decode(_ bytes: [UInt8]) -> [[UInt8]: [UInt8]] {
        var state: [[UInt8]: [UInt8]] = [:]
        var offset = 0
        func part() -> [UInt8] {
            let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
            defer { offset += 4 + length }
            return Array(bytes[(offset + 4)..<(offset + 4 + length)])
        }
        while offset < bytes.count {
            let key = part()
            state[key] = part()
        }
        return state
    }

    private static func recoverUpperState(_ engine: StorageEngine) throws -> [[UInt8]: [UInt8]] {
        var state: [[UInt8]: [UInt8]] = [:]
        try engine.recover { event in
            switch event {
            case .snapshot(let bytes, _): state = decode(bytes)
            case .put(let key, let value): state[key] = value
            case .delete(let key): state[key] = nil
            }
        }
        return state
    }

    /// Plain and encrypted (docs/encryption.md): the same operations, the same contents.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8], [false, true])
    func randomOperationsMatchADictionary(seed: UInt64, encrypted: Bool) throws {
        var generator = SeededRandom(seed: seed)
        let fileSystem = MemoryFileSystem()
        let background = seed % 2 == 0
        let encryption = testEncryption(encrypted)
        var engine = try openTestEngine(fileSystem, backgroundCompaction: background, encryption: encryption)
        var model: [[UInt8]: [UInt8]] = [:]
        for step in 0..<300 {
            switch generator.below(24) {
            case 0:
                try engine.compact()
            case 1:
                try engine.compact(onlyWhenDue: true)
            case 2, 3:
                let view = engine.view()
                var snapshot: [[UInt8]: [UInt8]] = [:]
                try view.forEach { key, value in
                    snapshot[key] = value
                    return true
                }
                try engine.saveSnapshot(Self.encode(snapshot), coveringSequence: view.sequence)
            case 4:
                try engine.close()
                engine = try openTestEngine(fileSystem, backgroundCompaction: background, encryption: encryption)
                let upper = try Self.recoverUpperState(engine)
                if let problem = difference(upper, model) {
                    Issue.record("seed \(seed), step \(step): the state rebuilt by recovery: \(problem)")
                    return
                }
            default:
                let batch = randomBatch(&generator, keyRange: 60, model: model)
                try engine.write(batch)
                apply(batch, to: &model)
            }
            if step % 10 == 0 || step == 299 {
                if let problem = difference(try contents(of: engine), model) {
                    Issue.record("seed \(seed), step \(step): \(problem)")
                    return
                }
            }
        }
        try engine.close()
        let reopened = try openTestEngine(fileSystem, encryption: encryption)
        let problem = difference(try contents(of: reopened), model)
        #expect(problem == nil, "seed \(seed): after the final reopen: \(problem ?? "")")
        let upper = difference(try Self.recoverUpperState(reopened), model)
        #expect(upper == nil, "seed \(seed): the state rebuilt by the final recovery: \(upper ?? "")")
        try reopened.close()
    }

    @Test func recoveryReplaysChangesAfterTheSnapshotInKeyOrder() throws {
        let fileSystem = MemoryFileSystem()
        let engine = try openTestEngine(fileSystem)
        var batch = WriteBatch()
        batch.put(testKey(1), [1])
        batch.put(testKey(2), [2])
        batch.put(testKey(3), [3])
        try engine.write(batch)
        let view = engine.view()
        try engine.saveSnapshot([0xAB], coveringSequence: view.sequence)
        var after = WriteBatch()
        after.put(testKey(3), [33])
        after.delete(testKey(2))
        after.put(testKey(4), [4])
        try engine.write(after)
        try engine.close()

        let reopened = try openTestEngine(fileSystem)
        var events: [String] = []
        try reopened.recover { event in
            switch event {
            case .snapshot(let state, let sequence): events.append("snapshot \(state) \(sequence)")
            case .put(let key, let value): events.append("put \(String(decoding: key.dropFirst(4), as: UTF8.self)) \(value)")
            case .delete(let key): events.append("delete \(String(decoding: key.dropFirst(4), as: UTF8.self))")
            }
        }
        #expect(events == ["snapshot [171] \(view.sequence)", "delete key-2", "put key-3 [33]", "put key-4 [4]"])
        try reopened.close()
    }

    @Test func withoutASnapshotRecoveryReplaysEveryLiveKey() throws {
        let fileSystem = MemoryFileSystem()
        let engine = try openTestEngine(fileSystem)
        var batch = WriteBatch()
        for number in 0..<5 { batch.put(testKey(number), [UInt8(number)]) }
        batch.delete(testKey(3))
        try engine.write(batch)
        try engine.close()
        let reopened = try openTestEngine(fileSystem)
        var puts: [[UInt8]: [UInt8]] = [:]
        try reopened.recover { event in
            guard case .put(let key, let value) = event else {
                Issue.record("unexpected \(event)")
                return
            }
            puts[key] = value
        }
        #expect(puts == [testKey(0): [0], testKey(1): [1], testKey(2): [2], testKey(4): [4]])
        try reopened.close()
    }

    @Test func aViewDoesNotSeeLaterWrites() throws {
        let engine = try openTestEngine(MemoryFileSystem())
        var first = WriteBatch()
        first.put(testKey(1), [1])
        try engine.write(first)
        let view = engine.view()
        var second = WriteBatch()
        second.put(testKey(1), [2])
        second.put(testKey(2), [2])
        try engine.write(second)
        try engine.compact()
        #expect(try view.value(for: testKey(1)) == [1])
        #expect(try view.value(for: testKey(2)) == nil)
        #expect(try engine.value(for: testKey(1)) == [2])
        try engine.close()
    }

    @Test func aSecondOpenOfTheSameDirectoryIsLocked() throws {
        let fileSystem = MemoryFileSystem()
        let engine = try openTestEngine(fileSystem)
        #expect(throws: StorageError.self) { try openTestEngine(fileSystem) }
        do {
            _ = try openTestEngine(fileSystem)
        } catch {
            #expect(error.code == .storeLocked)
        }
        try engine.close()
        let again = try openTestEngine(fileSystem)
        try again.close()
    }

    @Test func compactionKeepsSpaceBounded() throws {
        let fileSystem = MemoryFileSystem()
        let engine = try openTestEngine(fileSystem, backgroundCompaction: true)
        var generator = SeededRandom(seed: 99)
        for round in 0..<400 {
            var batch = WriteBatch()
            batch.put(testKey(round % 20), testValue(&generator))
            try engine.write(batch)
        }
        try engine.compact()
        let segments = try fileSystem.listDirectory("/store").filter { $0.hasSuffix(".seg") }
        let bytes = segments.reduce(0) { $0 + (fileSystem.fileContents("/store/" + $1)?.count ?? 0) }
        let live = try contents(of: engine).reduce(0) { $0 + $1.key.count + $1.value.count }
        // Live records are stored at most twice over (compressed values make it smaller still).
        #expect(bytes < 2 * (live + 20 * 64) + 2 * 16 << 10, "segments hold \(bytes) bytes for \(live) live bytes")
        try engine.close()
    }
}
