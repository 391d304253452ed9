// Behaviours the random tests do not pin one by one: consistent views under concurrent writes
// and compaction, durability modes, poisoning, blob lifecycle, orphans, snapshot fallback.

import StockpotCore
import Foundation
import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite struct EngineBehaviourTests {
    @Test func readersSeeWholeBatchesWhileWritingAndCompacting() throws {
        let engine = try openTestEngine(MemoryFileSystem())
        let keys = (0..<8).map { testKey($0) }
        var first = WriteBatch()
        for key in keys { first.put(key, Array("0".utf8)) }
        try engine.write(first)
        let done = ManagedAtomicFlag()
        let problems = ProblemLog()
        let readers = (0..<2).map { reader in
            Thread {
                while !done.isSet {
                    let view = engine.view()
                    do {
                        let values = try keys.map { try view.value(for: $0) }
                        if Set(values).count != 1 {
                            problems.add(
                                "reader \(reader) saw a half-applied batch: \(values.map { $0.map { String(decoding: $0, as: UTF8.self) } ?? "nil" })"
                            )
                        }
                    } catch {
                        problems.add("reader \(reader): \(error)")
                    }
                }
            }
        }
        readers.forEach { $0.start() }
        for version in 1...150 {
            var batch = WriteBatch()
            for key in keys { batch.put(key, Array(String(version).utf8)) }
            try engine.write(batch)
            if version % 25 == 0 { try engine.compact() }
        }
        done.set()
        while readers.contains(where: { $0.isExecuting }) { Thread.sleep(forTimeInterval: 0.001) }
        #expect(problems.all.isEmpty, "\(problems.all.prefix(3))")
        try engine.close()
    }

    @Test func aCleanCloseSealsALargeActiveSegmentSoTheNextOpenScansNothing() throws {
        let (fileSystem, options, model) = try sealedStore(seed: 5)
        let reopened = try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
        // Only the hint file and the fresh active segment's header are read.
        let hintBytes = try #require(fileSystem.fileContents("/store/" + FileNames.name(.hint, 1))).count
        #expect(reopened.openReport.segmentBytesRead == hintBytes + SegmentFormat.headerSize)
        #expect(difference(try contents(of: reopened), model) == nil)
        try reopened.close()
        // Below the threshold the active segment stays active (and is scanned).
        func segmentCount() throws -> Int {
            try fileSystem.listDirectory("/store").count { FileNames.parse($0)?.kind == .segment }
        }
        let before = try segmentCount()
        let small = try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
        var batch = WriteBatch()
        batch.put(testKey(99), [1, 2, 3])
        try small.write(batch)
        try small.close()
        #expect(try segmentCount() == before)
    }

    /// A hint file whose checksum verifies but whose trailer miscounts its entries fails only
    /// after every entry was read: the open must drop what it collected from it, scan the
    /// segment instead, and end with each key once.
    @Test func aHintFileFailingItsLastCheckIsIgnoredWhole() throws {
        let (fileSystem, options, model) = try sealedStore(seed: 6)
        let clean = try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
        let cleanDeadBytes = try clean.statistics().deadBytes
        try clean.close()
        let hintPath = "/store/" + FileNames.name(.hint, 1)
        var hint = try #require(fileSystem.fileContents(hintPath))
        let trailer = hint.count - HintFormat.trailerSize
        hint[trailer] &+= 1
        let checksum = Checksum.xxh3(Array(hint[0..<(hint.count - 8)]))
        for byte in 0..<8 { hint[hint.count - 8 + byte] = UInt8(truncatingIfNeeded: checksum >> (8 * UInt64(byte))) }
        try fileSystem.setFileContents(hintPath, hint)

        let reopened = try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
        #expect(reopened.openReport.hintProblems.count == 1)
        #expect(reopened.openReport.liveKeys == model.count)
        // Records counted twice would count as superseded by themselves.
        #expect(try reopened.statistics().deadBytes == cleanDeadBytes)
        #expect(difference(try contents(of: reopened), model) == nil)
        try reopened.close()
    }

    /// A store of 40 random values, closed cleanly with its active segment sealed (over the
    /// 4 KiB seal-on-close threshold), so that it has a hint file.
    private func sealedStore(seed: UInt64) throws -> (MemoryFileSystem, StorageOptions, [[UInt8]: [UInt8]]) {
        let fileSystem = MemoryFileSystem()
        var options = StorageOptions()
        options.sealActiveSegmentOnCloseBytes = 4 << 10
        options.backgroundCompaction = false
        var model: [[UInt8]: [UInt8]] = [:]
        var generator = SeededRandom(seed: seed)
        let engine = try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
        for number in 0..<40 {
            var batch = WriteBatch()
            batch.put(testKey(number), testValue(&generator))
            try engine.write(batch)
            apply(batch, to: &model)
        }
        try engine.close()
        return (fileSystem, options, model)
    }

    /// Writes 4,000 small records (about 140 KiB of hint entries: past the spill threshold).
    private func writeManyRecords(
        _ engine: StorageEngine, model: inout [[UInt8]: [UInt8]]
    ) throws {
        for first in stride(from: 0, to: 4_000, by: 500) {
            var batch = WriteBatch()
            for number in first..<(first + 500) { batch.put(testKey(number), Array("value \(number)".utf8)) }
            try engine.write(batch)
            apply(batch, to: &model)
        }
    }

    private func spillOptions(sealOnClose: Bool) -> StorageOptions {
        var options = StorageOptions()
        options.sealActiveSegmentOnCloseBytes = sealOnClose ? 4 << 10 : 1 << 30
        options.backgroundCompaction = false
        options.durability = .none
        return options
    }

    /// The active segment's hint entries past 64 KiB live in its temporary hint file; sealing
    /// builds the whole hint file from it, which the next open reads instead of scanning.
    @Test func hintEntriesSpilledWhileActiveMakeTheSealedSegmentsHintFile() throws {
        let fileSystem = MemoryFileSystem()
        let options = spillOptions(sealOnClose: true)
        var model: [[UInt8]: [UInt8]] = [:]
        let engine = try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
        try writeManyRecords(engine, model: &model)
        try engine.close()
        #expect(try fileSystem.listDirectory("/store").allSatisfy { !$0.hasSuffix(FileNames.temporarySuffix) })
        let reopened = try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
        #expect(reopened.openReport.hintProblems.isEmpty)
        let hintBytes = try #require(fileSystem.fileContents("/store/" + FileNames.name(.hint, 1))).count
        #expect(reopened.openReport.segmentBytesRead == hintBytes + SegmentFormat.headerSize)
        #expect(difference(try contents(of: reopened), model) == nil)
        try reopened.close()
    }

    /// A close that leaves the segment active removes the temporary hint file, so the next
    /// open has nothing to clean up.
    @Test func aCloseWithoutSealingRemovesTheSpilledHints() throws {
        let fileSystem = MemoryFileSystem()
        let options = spillOptions(sealOnClose: false)
        var model: [[UInt8]: [UInt8]] = [:]
        let engine = try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
        try writeManyRecords(engine, model: &model)
        try engine.close()
        #expect(try fileSystem.listDirectory("/store").allSatisfy { !$0.hasSuffix(FileNames.temporarySuffix) })
        let reopened = try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
        #expect(reopened.openReport.removedFiles.isEmpty)
        #expect(difference(try contents(of: reopened), model) == nil)
        try reopened.close()
    }

    /// Spilled entries that changed on disk before the seal are caught by the check of the
    /// built file: no hint file is written, and the next open scans the segment instead.
    @Test func damagedSpilledHintsAreNotWrittenAsAHintFile() throws {
        let fileSystem = MemoryFileSystem()
        let options = spillOptions(sealOnClose: true)
        var model: [[UInt8]: [UInt8]] = [:]
        let engine = try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
        try writeManyRecords(engine, model: &model)
        let spillPath = "/store/" + FileNames.temporary(FileNames.name(.hint, 1))
        var spilled = try #require(fileSystem.fileContents(spillPath))
        spilled[4] ^= 0x01  // the first entry's segment offset
        try fileSystem.setFileContents(spillPath, spilled)
        try engine.close()
        #expect(!(try fileSystem.listDirectory("/store").contains(FileNames.name(.hint, 1))))
        let reopened = try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
        #expect(difference(try contents(of: reopened), model) == nil)
        try reopened.close()
    }

    @Test func largeBatchesAreCompressedInParallelAndReadBack() throws {
        let fileSystem = MemoryFileSystem()
        let engine = try openTestEngine(fileSystem)
        var model: [[UInt8]: [UInt8]] = [:]
        // Large enough batches to be compressed on several threads, with a dictionary trained
        // (8 KiB in the test options) in the middle of the first one, and some short values.
        for round in 0..<3 {
            var batch = WriteBatch()
            for number in 0..<300 {
                let text = number % 10 == 0 ? "short \(number)" : String(repeating: "value \(number % 7) of round \(round); ", count: 8)
                batch.put(testKey(round * 1_000 + number), Array(text.utf8))
            }
            try engine.write(batch)
            apply(batch, to: &model)
        }
        #expect(difference(try contents(of: engine), model) == nil)
        try engine.close()
        let reopened = try openTestEngine(fileSystem)
        #expect(difference(try contents(of: reopened), model) == nil)
        let raw = model.values.reduce(0) { $0 + $1.count }
        let onDisk = try fileSystem.listDirectory("/store").filter { FileNames.parse($0)?.kind == .segment }
            .reduce(0) { $0 + (fileSystem.fileContents("/store/" + $1)?.count ?? 0) }
        #expect(onDisk < raw / 2, "segments hold \(onDisk) bytes for \(raw) bytes of values")
        try reopened.close()
    }

    @Test func intervalDurabilitySyncsWithoutBeingAsked() throws {
        let fileSystem = MemoryFileSystem()
        var options = StorageOptions()
        options.durability = .interval(milliseconds: 5)
        let engine = try StorageEngine.open(directory: "/store", options: options, fileSystem: fileSystem)
        var batch = WriteBatch()
        batch.put(testKey(1), [1, 2, 3])
        try engine.write(batch)
        #expect(try engine.value(for: testKey(1)) == [1, 2, 3])
        Thread.sleep(forTimeInterval: 0.2)
        let afterPowerLoss = fileSystem.durableCopy()
        let reopened = try openTestEngine(afterPowerLoss)
        #expect(try reopened.value(for: testKey(1)) == [1, 2, 3])
        try reopened.close()
        try engine.close()
    }

    @Test func noDurabilityIsStillAPrefixAndCloseMakesItDurable() throws {
        let fileSystem = MemoryFileSystem()
        let engine = try openTestEngine(fileSystem, durability: .none)
        var model: [[UInt8]: [UInt8]] = [:]
        var models = [model]
        var generator = SeededRandom(seed: 5)
        for _ in 0..<30 {
            let batch = randomBatch(&generator, keyRange: 40, model: model)
            try engine.write(batch)
            apply(batch, to: &model)
            models.append(model)
        }
        let lost = try openTestEngine(fileSystem.durableCopy())
        #expect(models.contains(try contents(of: lost)), "the state after a power loss is no prefix")
        try lost.close()
        try engine.close()
        let durable = try openTestEngine(fileSystem.durableCopy())
        #expect(difference(try contents(of: durable), model) == nil)
        try durable.close()
    }

    @Test func aFailedFsyncPoisonsWritesButNotReads() throws {
        let faulty = FaultInjectingFileSystem(wrapping: MemoryFileSystem(), only: [.sync])
        let engine = try openTestEngine(faulty)
        var batch = WriteBatch()
        batch.put(testKey(1), [1])
        try engine.write(batch)
        faulty.failCall(faulty.callCount + 1, with: .ioError)
        var second = WriteBatch()
        second.put(testKey(2), [2])
        #expect(performing: { try engine.write(second) }, throws: { ($0 as? StorageError)?.code == .poisoned })
        faulty.clearFault()
        var third = WriteBatch()
        third.put(testKey(3), [3])
        #expect(performing: { try engine.write(third) }, throws: { ($0 as? StorageError)?.code == .poisoned })
        #expect(try engine.value(for: testKey(1)) == [1])
        try engine.close()
    }

    @Test func largeValuesLiveInBlobFilesUntilSupersededAndUnread() throws {
        let fileSystem = MemoryFileSystem()
        let engine = try openTestEngine(fileSystem)
        let large = [UInt8](repeating: 7, count: 20_000)
        var batch = WriteBatch()
        batch.put(testKey(1), large)
        try engine.write(batch)
        func blobs() throws -> [String] { try fileSystem.listDirectory("/store").filter { $0.hasSuffix(".blob") } }
        #expect(try blobs().count == 1)
        #expect(try engine.value(for: testKey(1)) == large)

        let reader = engine.view()
        var overwrite = WriteBatch()
        overwrite.put(testKey(1), [1])
        try engine.write(overwrite)
        #expect(try blobs().count == 1, "a reader that can still see the blob keeps it")
        #expect(try reader.value(for: testKey(1)) == large)
        _ = consume reader
        var another = WriteBatch()
        another.put(testKey(2), [2])
        try engine.write(another)
        #expect(try blobs().isEmpty, "the superseded blob outlived its last reader")
        try engine.close()
    }

    @Test func openRemovesOrphanedFiles() throws {
        let fileSystem = MemoryFileSystem()
        try openTestEngine(fileSystem).close()
        try fileSystem.setFileContents("/store/" + FileNames.name(.blob, 900), [1, 2, 3])
        try fileSystem.setFileContents("/store/" + FileNames.name(.segment, 901), [4])
        try fileSystem.setFileContents("/store/MANIFEST.tmp", [5])
        let engine = try openTestEngine(fileSystem)
        #expect(Set(engine.openReport.removedFiles) == [FileNames.name(.blob, 900), FileNames.name(.segment, 901), "MANIFEST.tmp"])
        try engine.close()
    }

    @Test func aCorruptSnapshotFallsBackToAFullReplay() throws {
        let fileSystem = MemoryFileSystem()
        let engine = try openTestEngine(fileSystem)
        var batch = WriteBatch()
        batch.put(testKey(1), [1])
        batch.put(testKey(2), [2])
        try engine.write(batch)
        try engine.saveSnapshot([9, 9, 9], coveringSequence: engine.view().sequence)
        try engine.close()
        let name = try #require(try fileSystem.listDirectory("/store").first { $0.hasSuffix(".snap") })
        var bytes = try #require(fileSystem.fileContents("/store/" + name))
        bytes[bytes.count / 2] ^= 0x40
        try fileSystem.setFileContents("/store/" + name, bytes)

        let reopened = try openTestEngine(fileSystem)
        #expect(reopened.openReport.snapshotProblem?.code == .corruption)
        var puts = 0
        try reopened.recover { event in
            if case .put = event { puts += 1 } else { Issue.record("unexpected \(event)") }
        }
        #expect(puts == 2)
        try reopened.close()
    }
}

/// A flag threads can set and read.
final class ManagedAtomicFlag: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// Problems found on other threads, for the test to report.
final class ProblemLog: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var problems: [String] = []
    var all: [String] { lock.withLock { problems } }
    func add(_ problem: String) { lock.withLock { problems.append(problem) } }
}
