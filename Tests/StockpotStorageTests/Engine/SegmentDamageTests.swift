// Damage to segment files: a torn tail of the active segment is cut and every complete batch
// kept; the same cut in a sealed segment, or any flipped bit, is detected and never returned.
// Each test runs on a plain store and on an encrypted one (docs/encryption.md).

import Foundation
import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite struct SegmentDamageTests {
    /// A store whose batches are one record each, closed; returns the file system and the
    /// model after each batch.
    private func makeStore(
        batches: Int, rollBytes: Int, encrypted: Bool = false
    ) throws -> (MemoryFileSystem, [[[UInt8]: [UInt8]]]) {
        let fileSystem = MemoryFileSystem()
        var options = StorageOptions()
        options.encryption = testEncryption(encrypted)
        options.segmentRollBytes = rollBytes
        options.backgroundCompaction = false
        options.dictionaryBytes = 0
        let engine = try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
        var generator = SeededRandom(seed: 7)
        var model: [[UInt8]: [UInt8]] = [:]
        var models = [model]
        for number in 0..<batches {
            var batch = WriteBatch()
            batch.put(testKey(number), testValue(&generator))
            try engine.write(batch)
            apply(batch, to: &model)
            models.append(model)
        }
        try engine.close()
        return (fileSystem, models)
    }

    /// Where each record of an intact segment starts: a plain record's frame length and a
    /// sealed record's length both count the bytes after their own 4.
    private func recordOffsets(_ bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var offset = SegmentFormat.headerSize
        while let length = bytes.withUnsafeBytes({ $0.getUInt32LE(at: offset) }), length != 0 {
            offsets.append(offset)
            offset += 4 + Int(length)
        }
        return offsets
    }

    private func reopen(_ fileSystem: MemoryFileSystem, rollBytes: Int, encrypted: Bool = false) throws(StorageError) -> StorageEngine {
        var options = StorageOptions()
        options.encryption = testEncryption(encrypted)
        options.segmentRollBytes = rollBytes
        options.backgroundCompaction = false
        return try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
    }

    @Test(arguments: [false, true])
    func truncatedActiveTailKeepsEveryCompleteBatch(encrypted: Bool) throws {
        let (fileSystem, models) = try makeStore(batches: 8, rollBytes: 64 << 20, encrypted: encrypted)
        let path = "/store/" + FileNames.name(.segment, 1)
        let original = try #require(fileSystem.fileContents(path))
        let offsets = recordOffsets(original)
        #expect(offsets.count == 8)
        let firstCut = offsets[offsets.count - 3]
        for cut in firstCut..<original.count {
            try fileSystem.setFileContents(path, Array(original[..<cut]))
            let engine = try reopen(fileSystem, rollBytes: 64 << 20, encrypted: encrypted)
            let complete = offsets.filter { $0 < cut }.count - (offsets.contains(cut) ? 0 : 1)
            let expected = models[offsets.contains(cut) ? offsets.firstIndex(of: cut)! : complete]
            let problem = difference(try contents(of: engine), expected)
            #expect(problem == nil, "cut at \(cut): \(problem ?? "")")
            if !offsets.contains(cut) {
                #expect(engine.openReport.tornTail?.offset == offsets.last { $0 < cut }, "cut at \(cut)")
            }
            try engine.close()
        }
    }

    @Test(arguments: [false, true])
    func truncatedSealedSegmentIsCorruption(encrypted: Bool) throws {
        let (fileSystem, _) = try makeStore(batches: 12, rollBytes: 2048, encrypted: encrypted)
        let path = "/store/" + FileNames.name(.segment, 1)
        let original = try #require(fileSystem.fileContents(path))
        let offsets = recordOffsets(original)
        for cut in offsets[max(0, offsets.count - 3)]..<original.count {
            try fileSystem.setFileContents(path, Array(original[..<cut]))
            #expect(
                "cut at \(cut)", performing: { try reopen(fileSystem, rollBytes: 2048, encrypted: encrypted) },
                throws: { error in
                    (error as? StorageError)?.code == .corruption
                })
        }
        try fileSystem.setFileContents(path, original)
        try reopen(fileSystem, rollBytes: 2048, encrypted: encrypted).close()
    }

    @Test(arguments: [false, true])
    func everyBitFlipInASealedSegmentIsDetected(encrypted: Bool) throws {
        let (fileSystem, models) = try makeStore(batches: 6, rollBytes: 1024, encrypted: encrypted)
        let model = models.last!
        let path = "/store/" + FileNames.name(.segment, 1)
        let original = try #require(fileSystem.fileContents(path))
        for bit in 0..<(original.count * 8) {
            var flipped = original
            flipped[bit / 8] ^= 1 << (bit % 8)
            try fileSystem.setFileContents(path, flipped)
            var detected = false
            do {
                let engine = try reopen(fileSystem, rollBytes: 1024, encrypted: encrypted)
                for (key, value) in model {
                    do {
                        let read = try engine.value(for: key)
                        #expect(read == value, "bit \(bit): a flipped value was returned")
                    } catch {
                        #expect(error.code == .corruption, "bit \(bit): \(error)")
                        detected = true
                    }
                }
                try engine.close()
            } catch {
                #expect(error.code == .corruption, "bit \(bit): \(error)")
                detected = true
            }
            #expect(detected, "bit \(bit) of \(original.count * 8) went unnoticed")
        }
    }

    /// The same on the real file system, where sealed segments are read through a memory
    /// mapping: every seventh bit (so every byte and every bit position is hit).
    @Test func bitFlipsInAMappedSealedSegmentAreDetected() throws {
        let (memory, models) = try makeStore(batches: 6, rollBytes: 1024)
        let model = models.last!
        let directory = NSTemporaryDirectory() + "stockpot-flip-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in try memory.listDirectory("/store") {
            let bytes = try #require(memory.fileContents("/store/" + name))
            _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(bytes))
        }
        let path = directory + "/" + FileNames.name(.segment, 1)
        let original = try #require(memory.fileContents("/store/" + FileNames.name(.segment, 1)))
        var options = StorageOptions()
        options.segmentRollBytes = 1024
        options.backgroundCompaction = false
        for bit in stride(from: 0, to: original.count * 8, by: 7) {
            var flipped = original
            flipped[bit / 8] ^= 1 << (bit % 8)
            _ = FileManager.default.createFile(atPath: path, contents: Data(flipped))
            var detected = false
            do {
                let engine = try StorageEngine.open(directory: directory, options: options)
                for (key, value) in model {
                    do {
                        let read = try engine.value(for: key)
                        #expect(read == value, "bit \(bit): a flipped value was returned")
                    } catch {
                        #expect(error.code == .corruption, "bit \(bit): \(error)")
                        detected = true
                    }
                }
                try engine.close()
            } catch {
                #expect(error.code == .corruption, "bit \(bit): \(error)")
                detected = true
            }
            #expect(detected, "bit \(bit) of \(original.count * 8) went unnoticed")
        }
    }
}
