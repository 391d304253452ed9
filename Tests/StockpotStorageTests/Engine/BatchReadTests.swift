// Reads of many keys in one call (`StorageView.values(forKeys:keyLength:)` and `valueSlices`,
// used for pages of query results): the same answers as one point read per key, from mapped
// sealed segments, the active segment, blobs and missing keys alike; damage found as point
// reads find it.

import Foundation
import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite struct BatchReadTests {
    /// Keys of one length (the batch call takes keys packed back to back).
    private func key(_ number: Int) -> [UInt8] { testKey(1000 + number) }

    /// Writes `count` keys one batch each (so small roll sizes spread them over segments), some
    /// as blobs, closes and reopens; returns the engine and the model.
    private func makeEngine(directory: String, fileSystem: any FileSystem, count: Int) throws -> (StorageEngine, [[UInt8]: [UInt8]]) {
        var generator = SeededRandom(seed: 11)
        var model: [[UInt8]: [UInt8]] = [:]
        do {
            let engine = try openTestEngine(fileSystem, directory: directory)
            for number in 0..<count {
                var batch = WriteBatch()
                let value = testValue(&generator, large: number % 17 == 0)
                batch.put(key(number), value)
                try engine.write(batch)
                model[key(number)] = value
            }
            var deletes = WriteBatch()
            deletes.delete(key(3))
            try engine.write(deletes)
            model[key(3)] = nil
            try engine.close()
        }
        return (try openTestEngine(fileSystem, directory: directory), model)
    }

    private func packed(_ keys: [[UInt8]]) -> [UInt8] { keys.flatMap { $0 } }

    @Test(arguments: [false, true])
    func batchReadsGiveWhatPointReadsGive(realFileSystem: Bool) throws {
        let directory = NSTemporaryDirectory() + "stockpot-batch-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fileSystem: any FileSystem = realFileSystem ? RealFileSystem() : MemoryFileSystem()
        let (engine, model) = try makeEngine(directory: realFileSystem ? directory : "/store", fileSystem: fileSystem, count: 120)
        defer { try? engine.close() }
        // Written more after the reopen: these live in the active segment, read with pread.
        var generator = SeededRandom(seed: 12)
        var batch = WriteBatch()
        var expected = model
        for number in 120..<130 {
            let value = testValue(&generator)
            batch.put(key(number), value)
            expected[key(number)] = value
        }
        try engine.write(batch)
        #expect(try engine.statistics().segments > 2, "the keys should span several segments")

        // Present, missing (never written, deleted) and repeated keys, out of order.
        var random = SeededRandom(seed: 13)
        var keys = (0..<140).map { key($0) }
        keys += keys.prefix(10)
        keys.shuffle(using: &random)
        let view = engine.view()
        // First reads of every record (none is in the decoded value cache yet), as slices of
        // shared buffers: far fewer buffers than values (each slice's buffer is found from
        // its first element's address).
        let slices = try packed(keys).withUnsafeBytes { try view.valueSlices(forKeys: $0, keyLength: keys[0].count) }
        var buffers = Set<UnsafeRawPointer>()
        for slice in slices.compactMap({ $0 }) {
            _ = slice.withUnsafeBytes { buffers.insert($0.baseAddress! - slice.startIndex) }
        }
        let present = slices.compactMap { $0 }.count
        #expect(buffers.count * 4 < present, "\(buffers.count) buffers for \(present) values")

        let batchValues = try packed(keys).withUnsafeBytes { try view.values(forKeys: $0, keyLength: keys[0].count) }
        #expect(batchValues.count == keys.count)
        for (key, value) in zip(keys, batchValues) {
            #expect(value == expected[key])
            #expect(value == (try view.value(for: key)))
        }
        #expect(slices.map { $0.map { Array($0) } } == batchValues)
        #expect(try view.values(forKeys: UnsafeRawBufferPointer(start: nil, count: 0), keyLength: 4).isEmpty)

        // Read again, now mostly from the cache (shared arrays): the same bytes.
        let again = try packed(keys).withUnsafeBytes { try view.valueSlices(forKeys: $0, keyLength: keys[0].count) }
        #expect(again.map { $0.map { Array($0) } } == batchValues)
        #expect(try engine.statistics().decodedCacheHits > 0)
        #expect(try view.valueSlices(forKeys: UnsafeRawBufferPointer(start: nil, count: 0), keyLength: 4).isEmpty)
    }

    @Test func valueSlicesStartABufferWhenTheNextValueDoesNotFit() {
        var chunks = ValueChunks(count: 4)
        let small = [UInt8](repeating: 7, count: ValueChunks.chunkCapacity / 2 + 100)
        let large = [UInt8](repeating: 9, count: ValueChunks.chunkCapacity * 2)
        for (position, value) in [small, small, large].enumerated() {
            chunks.reserve(value.count)
            let start = chunks.buffer.count
            value.withUnsafeBytes { chunks.append($0) }
            chunks.finishValue(at: position, from: start)
        }
        let slices = chunks.finish()
        #expect(slices.map { $0.map { Array($0) } } == [small, small, large, nil])
        // Each value in a buffer of its own: two values of over half a buffer do not fit in
        // one (the allocator rounds a buffer up by a few bytes, not by a hundred).
        #expect(slices[0]!.startIndex == 0 && slices[1]!.startIndex == 0 && slices[2]!.startIndex == 0)
    }

    /// About 150 bits of the first segment (sealed, so mapped) flipped, one at a time, at an odd
    /// stride (so every bit position is hit): a batch read of every key either returns exactly
    /// the written values or throws `corruption`, never a damaged value.
    @Test func bitFlipsInAMappedSegmentAreDetectedByBatchReads() throws {
        let directory = NSTemporaryDirectory() + "stockpot-batch-flip-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (engine, model) = try makeEngine(directory: directory, fileSystem: RealFileSystem(), count: 120)
        try engine.close()
        // The first segment: sealed (a later one exists), so read through its mapping.
        let segments = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".seg") }.sorted()
        try #require(segments.count >= 2, "the keys should span several segments")
        let path = directory + "/" + segments[0]
        let original = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let keys = Array(model.keys)
        let keyBytes = packed(keys)
        var detections = 0
        for bit in stride(from: 0, to: original.count * 8, by: max(7, original.count * 8 / 150) | 1) {
            var flipped = original
            flipped[bit / 8] ^= 1 << (bit % 8)
            _ = FileManager.default.createFile(atPath: path, contents: Data(flipped))
            do {
                let engine = try openTestEngine(RealFileSystem(), directory: directory)
                defer { try? engine.close() }
                let view = engine.view()
                let values = try keyBytes.withUnsafeBytes { try view.values(forKeys: $0, keyLength: keys[0].count) }
                #expect(values == keys.map { model[$0] }, "bit \(bit): a flipped value was returned")
                let slices = try keyBytes.withUnsafeBytes { try view.valueSlices(forKeys: $0, keyLength: keys[0].count) }
                #expect(slices.map { $0.map { Array($0) } } == values, "bit \(bit): slices differ from values")
            } catch let error as StorageError {
                #expect(error.code == .corruption, "bit \(bit): \(error)")
                detections += 1
            }
        }
        #expect(detections > 0)
        _ = FileManager.default.createFile(atPath: path, contents: Data(original))
    }
}
