// Recovery's replay reads values a chunk at a time on every core (ReplayChunk): events still
// arrive in key order across chunks, deletes interleaved, and a damaged record stops the
// replay at its key with corruption naming its segment and offset, after every earlier event.

import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite struct ReplayTests {
    /// More keys than three replay chunks, so chunk boundaries and the parallel reads are hit.
    static let keyCount = ReplayChunk.capacity * 3 + 17

    /// A closed store of `keyCount` keys (some values blobs) in several sealed segments with
    /// hint files, so values are read only by the replay; returns its model.
    private func makeStore(_ fileSystem: MemoryFileSystem) throws -> [[UInt8]: [UInt8]] {
        let engine = try openTestEngine(fileSystem, durability: .none)
        var generator = SeededRandom(seed: 0x5EED_0C4A)
        var model: [[UInt8]: [UInt8]] = [:]
        var batch = WriteBatch()
        for number in 0..<Self.keyCount {
            let value = testValue(&generator, large: number % 997 == 0)
            batch.put(testKey(number, space: number % 5 == 0 ? 2 : 1), value)
            if batch.count == 100 {
                try engine.write(batch)
                apply(batch, to: &model)
                batch = WriteBatch()
            }
        }
        try engine.write(batch)
        apply(batch, to: &model)
        try engine.close()
        return model
    }

    private static func sorted(_ keys: some Sequence<[UInt8]>) -> [[UInt8]] {
        keys.sorted { $0.lexicographicallyPrecedes($1) }
    }

    @Test func fullReplayOfManyChunksDeliversEveryValueInKeyOrder() throws {
        let fileSystem = MemoryFileSystem()
        let model = try makeStore(fileSystem)
        let reopened = try openTestEngine(fileSystem)
        var keys: [[UInt8]] = []
        var values: [[UInt8]: [UInt8]] = [:]
        try reopened.recover { event in
            guard case .put(let key, let value) = event else {
                Issue.record("unexpected \(event)")
                return
            }
            keys.append(key)
            values[key] = value
        }
        #expect(keys == Self.sorted(model.keys))
        #expect(difference(values, model) == nil)
        try reopened.close()
    }

    @Test func replayAfterASnapshotInterleavesDeletesAcrossChunks() throws {
        let fileSystem = MemoryFileSystem()
        var model = try makeStore(fileSystem)
        let engine = try openTestEngine(fileSystem, durability: .none)
        try engine.recover { _ in }
        try engine.saveSnapshot([7], coveringSequence: engine.view().sequence)
        var generator = SeededRandom(seed: 0xDE1E7E)
        var expected: [[UInt8]: String] = [:]
        var batch = WriteBatch()
        for (index, key) in Self.sorted(model.keys).enumerated() where index % 3 == 0 || index % 7 == 0 {
            if index % 3 == 0 {
                batch.delete(key)
                expected[key] = "delete"
            } else {
                let value = testValue(&generator)
                batch.put(key, value)
                expected[key] = "put \(value)"
            }
        }
        try engine.write(batch)
        apply(batch, to: &model)
        try engine.close()

        let reopened = try openTestEngine(fileSystem)
        var events: [String] = []
        var changedKeys: [[UInt8]] = []
        try reopened.recover { event in
            switch event {
            case .snapshot(let state, _): events.append("snapshot \(state)")
            case .put(let key, let value):
                changedKeys.append(key)
                #expect(expected[key] == "put \(value)")
            case .delete(let key):
                changedKeys.append(key)
                #expect(expected[key] == "delete")
            }
        }
        #expect(events == ["snapshot [7]"])
        #expect(changedKeys == Self.sorted(expected.keys), "every changed key once, in key order")
        #expect(difference(try contents(of: reopened), model) == nil)
        try reopened.close()
    }

    /// Flips one byte of the value of a key deep in the replay (in a later chunk than the
    /// first): the replay delivers exactly the keys before it, in order, then throws
    /// corruption naming the segment and the record's offset. Hints spare the open any scan,
    /// so only the replay can notice.
    @Test(arguments: [1, 2, 3] as [Int])
    func aDamagedValueStopsTheReplayAtItsKey(chunk: Int) throws {
        let fileSystem = MemoryFileSystem()
        let model = try makeStore(fileSystem)
        let order = Self.sorted(model.keys)
        // Where each key's record is; only sealed segments (those with a hint file) qualify,
        // since the open scans the active one and would notice the damage itself.
        var records: [[UInt8]: (path: String, offset: Int, valueOffset: Int)] = [:]
        let names = try fileSystem.listDirectory("/store")
        for name in names where FileNames.parse(name)?.kind == .segment {
            let number = try #require(FileNames.parse(name)?.number)
            guard names.contains(FileNames.name(.hint, number)) else { continue }
            let path = "/store/" + name
            let bytes = try #require(fileSystem.fileContents(path))
            let scan = try bytes.withUnsafeBytes { raw in
                try SegmentScanner.scan(raw, file: path, fileNumber: number, identity: nil, allowsLegacy: false, sealedLength: nil)
            }
            for record in scan.records {
                records[record.key] = (path, record.offset, record.offset + RecordCodec.fieldsSize + record.header.keyLength)
            }
        }
        let nominal = ReplayChunk.capacity * chunk - chunk * 101
        let position = try #require((nominal..<order.count).first { records[order[$0]] != nil })
        let record = try #require(records[order[position]])
        var flipped = try #require(fileSystem.fileContents(record.path))
        flipped[record.valueOffset] ^= 0x10
        try fileSystem.setFileContents(record.path, flipped)
        let damaged: (path: String, offset: Int)? = (record.path, record.offset)
        let (path, offset) = try #require(damaged)
        let reopened = try openTestEngine(fileSystem)
        var delivered: [[UInt8]] = []
        do {
            try reopened.recover { event in
                if case .put(let key, let value) = event {
                    delivered.append(key)
                    #expect(value == model[key])
                }
            }
            Issue.record("the damaged value was replayed")
        } catch let error as StorageError {
            #expect(error.code == .corruption)
            #expect(error.file == path && error.offset == offset, "\(error)")
        }
        #expect(delivered == Array(order[..<position]))
        try reopened.close()
    }
}
