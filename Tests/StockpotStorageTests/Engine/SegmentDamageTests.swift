// Damage to segment files: a torn tail of the active segment is cut and every complete batch
// kept; the same cut in a sealed segment, or any flipped bit, is detected and never returned.

import Foundation
import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite struct SegmentDamageTests {
    /// A store whose batches are one record each, closed; returns the file system and the
    /// model after each batch.
    private func makeStore(batches: Int, rollBytes: Int) throws -> (MemoryFileSystem, [[[UInt8]: [UInt8]]]) {
        let fileSystem = MemoryFileSystem()
        var options = StorageOptions()
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

    private func recordOffsets(_ bytes: [UInt8], number: UInt64) throws -> [Int] {
        let scan = try bytes.withUnsafeBytes { raw in
            try SegmentScanner.scan(raw, file: "segment", fileNumber: number, identity: nil, allowsLegacy: false, sealedLength: nil)
        }
        return scan.records.map(\.offset)
    }

    private func reopen(_ fileSystem: MemoryFileSystem, rollBytes: Int) throws(StorageError) -> StorageEngine {
        var options = StorageOptions()
        options.segmentRollBytes = rollBytes
        options.backgroundCompaction = false
        return try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
    }

    @Test func truncatedActiveTailKeepsEveryCompleteBatch() throws {
        let (fileSystem, models) = try makeStore(batches: 8, rollBytes: 64 << 20)
        let path = "/store/" + FileNames.name(.segment, 1)
        let original = try #require(fileSystem.fileContents(path))
        let offsets = try recordOffsets(original, number: 1)
        let firstCut = offsets[offsets.count - 3]
        for cut in firstCut..<original.count {
            try fileSystem.setFileContents(path, Array(original[..<cut]))
            let engine = try reopen(fileSystem, rollBytes: 64 << 20)
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

    @Test func truncatedSealedSegmentIsCorruption() throws {
        let (fileSystem, _) = try makeStore(batches: 12, rollBytes: 2048)
        let path = "/store/" + FileNames.name(.segment, 1)
        let original = try #require(fileSystem.fileContents(path))
        let offsets = try recordOffsets(original, number: 1)
        for cut in offsets[max(0, offsets.count - 3)]..<original.count {
            try fileSystem.setFileContents(path, Array(original[..<cut]))
            #expect("cut at \(cut)", performing: { try reopen(fileSystem, rollBytes: 2048) }, throws: { error in
                (error as? StorageError)?.code == .corruption
            })
        }
        try fileSystem.setFileContents(path, original)
        try reopen(fileSystem, rollBytes: 2048).close()
    }

    @Test func everyBitFlipInASealedSegmentIsDetected() throws {
        let (fileSystem, models) = try makeStore(batches: 6, rollBytes: 1024)
        let model = models.last!
        let path = "/store/" + FileNames.name(.segment, 1)
        let original = try #require(fileSystem.fileContents(path))
        for bit in 0..<(original.count * 8) {
            var flipped = original
            flipped[bit / 8] ^= 1 << (bit % 8)
            try fileSystem.setFileContents(path, flipped)
            var detected = false
            do {
                let engine = try reopen(fileSystem, rollBytes: 1024)
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
            FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(bytes))
        }
        let path = directory + "/" + FileNames.name(.segment, 1)
        let original = try #require(memory.fileContents("/store/" + FileNames.name(.segment, 1)))
        var options = StorageOptions()
        options.segmentRollBytes = 1024
        options.backgroundCompaction = false
        for bit in stride(from: 0, to: original.count * 8, by: 7) {
            var flipped = original
            flipped[bit / 8] ^= 1 << (bit % 8)
            FileManager.default.createFile(atPath: path, contents: Data(flipped))
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
