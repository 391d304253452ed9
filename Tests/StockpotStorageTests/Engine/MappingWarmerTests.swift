// The engine warms sealed segments' mappings after an open and after a roll, and not when
// `warmMappings` is off: a thread reading every page of every mapping takes no page faults
// once warmed (the page cache holds the files, which were just written).
#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite struct MappingWarmerTests {
    /// `RUSAGE_THREAD` (1), which Glibc's module does not export: tests run in parallel.
    static let thisThread: Int32 = 1

    /// This thread's minor faults while it reads one byte of every page of every sealed
    /// segment's mapping, how many pages that was, and how many mappings.
    private func faultsReadingSealedSegments(_ engine: StorageEngine) -> (faults: Int, pages: Int, mappings: Int) {
        let regions = engine.view().version.segments.files.values.compactMap(\.mappedRegion)
        var usage = rusage()
        getrusage(Self.thisThread, &usage)
        let before = usage.ru_minflt
        var sum: UInt64 = 0, pages = 0
        for region in regions {
            for offset in stride(from: 0, to: region.bytes.count, by: 4096) {
                sum &+= UInt64(region.bytes[offset])
                pages += 1
            }
        }
        getrusage(Self.thisThread, &usage)
        #expect(sum != 0, "every segment starts with its header")
        return (usage.ru_minflt - before, pages, regions.count)
    }

    /// A store on the real file system with many sealed segments (16 KiB rolls), written a
    /// record at a time as a log is, closed and reopened.
    private func reopenedStore(at directory: String, warm: Bool) throws -> StorageEngine {
        var writer = try openTestEngine(RealFileSystem(), directory: directory, durability: .none)
        var generator = SeededRandom(seed: 41)
        for number in 0..<800 {
            var batch = WriteBatch()
            batch.put(Array("key\(number)".utf8), testValue(&generator))
            try writer.write(batch)
        }
        try writer.close()
        var options = StorageOptions()
        options.segmentRollBytes = 16 << 10
        options.warmMappings = warm
        writer = try StorageEngine.open(directory: directory, options: options)
        return writer
    }

    @Test(arguments: [true, false])
    func sealedSegmentsAreWarmedAfterAnOpenOnlyWhenAskedTo(warm: Bool) throws {
        let directory = NSTemporaryDirectory() + "stockpot-warm-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let engine = try reopenedStore(at: directory, warm: warm)
        defer { try? engine.close() }
        engine.warmer.waitUntilIdle()
        let (faults, pages, mappings) = faultsReadingSealedSegments(engine)
        #expect(mappings >= 8, "the store should have many sealed segments, has \(mappings)")
        if warm {
            #expect(faults == 0, "\(faults) faults reading \(pages) warmed pages of \(mappings) segments")
        } else {
            // Each segment is its own mapping: its first read faults.
            #expect(faults >= mappings, "\(faults) faults reading \(pages) cold pages of \(mappings) segments")
        }
    }

    @Test func aSegmentSealedByARollIsWarmed() throws {
        let directory = NSTemporaryDirectory() + "stockpot-warm-roll-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let engine = try reopenedStore(at: directory, warm: true)
        defer { try? engine.close() }
        engine.warmer.waitUntilIdle()
        _ = faultsReadingSealedSegments(engine)  // every segment mapped before the roll
        let sealedBefore = engine.view().version.segments.files.count
        var generator = SeededRandom(seed: 42)
        while engine.view().version.segments.files.count == sealedBefore {
            var batch = WriteBatch()
            batch.put(Array("more\(generator.next())".utf8), testValue(&generator))
            try engine.write(batch)
        }
        engine.warmer.waitUntilIdle()
        let (faults, pages, _) = faultsReadingSealedSegments(engine)
        #expect(faults == 0, "\(faults) faults reading \(pages) pages after a roll")
    }
}
