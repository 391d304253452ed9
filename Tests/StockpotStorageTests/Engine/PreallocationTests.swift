// The active segment is extended ahead of its appends (docs/durability.md, "Commit a batch"):
// its zero-filled end is cut when it is sealed or the store closes, and after a crash the
// next open reads it as the zero tail, keeps every batch and reports no damage.

import StockpotStorage
import Testing
import StockpotTestSupport

@Suite struct PreallocationTests {
    /// The size of the highest-numbered segment file in `/store`: the active one.
    func activeSegmentSize(_ fileSystem: MemoryFileSystem) throws -> Int {
        let name = try #require(try fileSystem.listDirectory("/store").filter { $0.hasSuffix(".seg") }.max())
        return try #require(fileSystem.fileContents("/store/" + name)).count
    }

    /// Writes `count` small single-put batches; the model of what they wrote.
    func writeBatches(_ engine: StorageEngine, count: Int, seed: UInt64) throws -> [[UInt8]: [UInt8]] {
        var generator = SeededRandom(seed: seed)
        var model: [[UInt8]: [UInt8]] = [:]
        for number in 0..<count {
            var batch = WriteBatch()
            let value = Array(testValue(&generator).prefix(200))
            batch.put(testKey(number), value)
            try engine.write(batch)
            model[testKey(number)] = value
        }
        return model
    }

    @Test func theActiveSegmentGrowsInStepsAndACloseCutsItsZeros() throws {
        let fileSystem = MemoryFileSystem()
        let engine = try openTestEngine(fileSystem)
        let model = try writeBatches(engine, count: 5, seed: 11)
        let preallocated = try activeSegmentSize(fileSystem)
        #expect(preallocated % (4 << 10) == 0, "the file grows in whole preallocation steps")
        try engine.close()
        let closed = try activeSegmentSize(fileSystem)
        #expect(closed < preallocated)
        let reopened = try openTestEngine(fileSystem)
        #expect(reopened.openReport.tornTail == nil)
        #expect(try activeSegmentSize(fileSystem) == closed, "the close left no zero tail to cut")
        #expect(difference(try contents(of: reopened), model) == nil)
        try reopened.close()
    }

    @Test func aPowerLossLeavesZerosThatTheNextOpenReadsAsTheEnd() throws {
        let fileSystem = MemoryFileSystem()
        let engine = try openTestEngine(fileSystem)
        let model = try writeBatches(engine, count: 7, seed: 12)
        // Every batch was acknowledged with durability .full; power goes out now.
        let survivor = fileSystem.durableCopy()
        let crashed = try activeSegmentSize(survivor)
        #expect(crashed % (4 << 10) == 0, "the synced file still has its preallocated zeros")
        let reopened = try openTestEngine(survivor)
        #expect(reopened.openReport.tornTail == nil, "a zero tail is the end, not damage")
        #expect(try activeSegmentSize(survivor) < crashed, "the open cut the zeros")
        #expect(difference(try contents(of: reopened), model) == nil)
        // Appends go on at the end of the last batch, not after the zeros.
        let more = try writeBatches(reopened, count: 3, seed: 13)
        try reopened.close()
        let again = try openTestEngine(survivor)
        #expect(difference(try contents(of: again), model.merging(more) { $1 }) == nil)
        try again.close()
        try engine.close()
    }

    @Test func turnedOffTheFileEndsAtItsLastRecord() throws {
        let fileSystem = MemoryFileSystem()
        var options = StorageOptions()
        options.preallocationBytes = 0
        let engine = try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
        _ = try writeBatches(engine, count: 3, seed: 14)
        let size = try activeSegmentSize(fileSystem)
        #expect(size % (4 << 10) != 0 && size < 4 << 10)
        try engine.close()
        #expect(try activeSegmentSize(fileSystem) == size)
    }
}
