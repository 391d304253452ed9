// The decoded value cache on its own: admission on a second miss, the byte budget, the size
// limit, and answers that are always the bytes inserted for that record, from many threads.
// Reads through an engine with the cache are checked here and by every engine test (the test
// engines keep a small cache, so the model tests read through it).

import Dispatch
import Synchronization
import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite struct DecodedValueCacheTests {
    /// The value a record at `segment`/`offset` decodes to in these tests: a record never
    /// changes, so its value is a function of its address. (Offset 0 of a segment is its
    /// header, never a record, so no test asks for it.)
    private static func value(segment: UInt32, offset: UInt32, length: Int) -> [UInt8] {
        (0..<length).map { UInt8(truncatingIfNeeded: Int(segment) &* 31 &+ Int(offset) &+ $0) }
    }

    @Test func aValueIsKeptFromItsSecondMiss() throws {
        let cache = try #require(DecodedValueCache(capacityBytes: 1 << 20))
        let stored = Self.value(segment: 3, offset: 4096, length: 900)
        #expect(cache.value(segment: 3, offset: 4096, length: 500).lookup == .skip)
        #expect(cache.value(segment: 3, offset: 4096, length: 500).lookup == .admit)
        cache.insert(stored, segment: 3, offset: 4096)
        let found = cache.value(segment: 3, offset: 4096, length: 500)
        #expect(found.lookup == .hit)
        #expect(found.value == stored)
        // Another offset of the same segment, and the same offset of another segment, are
        // other records.
        #expect(cache.value(segment: 3, offset: 4097, length: 500).value == nil)
        #expect(cache.value(segment: 4, offset: 4096, length: 500).value == nil)
        let statistics = cache.statistics
        #expect(statistics.hits == 1)
        #expect(statistics.misses == 4)
        #expect(statistics.bytes == 900)
        #expect(statistics.values == 1)
    }

    /// A page's lookups at once give what one lookup each gives, in order, and count alike.
    @Test func aPageOfLookupsAnswersAsSingleLookups() throws {
        let cache = try #require(DecodedValueCache(capacityBytes: 1 << 20))
        let kept = Self.value(segment: 2, offset: 640, length: 300)
        _ = cache.value(segment: 2, offset: 640, length: 200)
        _ = cache.value(segment: 2, offset: 640, length: 200)
        cache.insert(kept, segment: 2, offset: 640)
        _ = cache.value(segment: 2, offset: 1280, length: 200)  // missed once: admitted next
        let page = cache.values(at: [
            .init(segment: 2, offset: 640, length: 200), nil, .init(segment: 2, offset: 1280, length: 200),
            .init(segment: 2, offset: 1920, length: 200), .init(segment: 2, offset: 2560, length: 1 << 20),
        ])
        #expect(page.map(\.lookup) == [.hit, .skip, .admit, .skip, .skip])
        #expect(page[0].value == kept)
        #expect(page.dropFirst().allSatisfy { $0.value == nil })
        let statistics = cache.statistics
        #expect(statistics.hits == 1)
        #expect(statistics.misses == 3 + 3)
    }

    @Test func aZeroCapacityIsNoCache() {
        #expect(DecodedValueCache(capacityBytes: 0) == nil)
        #expect(DecodedValueCache(capacityBytes: -1) == nil)
    }

    /// Any capacity a caller passes opens (the bookkeeping is made up front, so it is capped).
    @Test func aHugeCapacityStillOpens() throws {
        let cache = try #require(DecodedValueCache(capacityBytes: Int.max))
        _ = cache.value(segment: 1, offset: 8, length: 100)
        #expect(cache.value(segment: 1, offset: 8, length: 100).lookup == .admit)
        cache.insert([1, 2, 3], segment: 1, offset: 8)
        #expect(cache.value(segment: 1, offset: 8, length: 100).value == [1, 2, 3])
    }

    @Test func valuesPastTheLimitAreNeverKept() throws {
        let cache = try #require(DecodedValueCache(capacityBytes: 64 << 10))
        #expect(cache.largestValue == 1024)
        // A long record is never admitted, however often it is missed.
        for _ in 0..<3 { #expect(cache.value(segment: 1, offset: 0, length: 2000).lookup == .skip) }
        // A short record that decodes long is refused at insertion.
        _ = cache.value(segment: 1, offset: 64, length: 200)
        #expect(cache.value(segment: 1, offset: 64, length: 200).lookup == .admit)
        cache.insert(Self.value(segment: 1, offset: 64, length: 1025), segment: 1, offset: 64)
        #expect(cache.value(segment: 1, offset: 64, length: 200).value == nil)
        #expect(cache.statistics.bytes == 0)
    }

    /// Random reads of a few hundred records of random sizes, each read as an engine does
    /// (look up; on `.admit`, insert what the record decodes to): every hit is the record's
    /// value, the bytes held never pass the capacity, and the counters add up.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func randomReadsGetTheirRecordsValueWithinTheBudget(seed: UInt64) throws {
        var generator = SeededRandom(seed: seed)
        // Room for 512 entries of up to 4 KiB: the byte budget, not the entries, is the limit.
        let capacity = 256 << 10
        let cache = try #require(DecodedValueCache(capacityBytes: capacity))
        let records = (0..<300).map { index in
            (segment: UInt32(1 + index % 5), offset: UInt32(index * 977), length: 1 + generator.below(cache.largestValue + 40))
        }
        let values = records.map { Self.value(segment: $0.segment, offset: $0.offset, length: $0.length) }
        var hits = 0
        for step in 0..<20_000 {
            // A skewed choice: a few records are read far more often, as a list screen's are.
            let index = generator.below(4) == 0 ? generator.below(records.count) : generator.below(12)
            let record = records[index]
            let expected = values[index]
            let found = cache.value(segment: record.segment, offset: record.offset, length: record.length)
            switch found.lookup {
            case .hit:
                hits += 1
                #expect(found.value == expected, "seed \(seed), step \(step): record \(index) came back wrong")
            case .admit:
                cache.insert(expected, segment: record.segment, offset: record.offset)
            case .skip:
                #expect(found.value == nil)
            }
            let statistics = cache.statistics
            #expect(statistics.bytes <= capacity, "seed \(seed), step \(step): \(statistics.bytes) bytes held")
        }
        let statistics = cache.statistics
        #expect(statistics.hits == hits)
        #expect(statistics.hits + statistics.misses == 20_000)
        #expect(statistics.insertions - statistics.evictions == statistics.values)
        // The often-read records are mostly answered from the cache, and the others pushed
        // the budget: values were evicted to stay within it.
        #expect(hits > 10_000, "seed \(seed): only \(hits) hits")
        #expect(statistics.evictions > 0)
        #expect(statistics.bytes > capacity / 2)
    }

    /// Reads of one record after another, never again (random gets over far more documents
    /// than the cache holds), make it bypass: most lookups answer `.skip` without looking,
    /// and are counted as misses. A hot set read over and over then gets in through the
    /// sampled lookups, the cache stops bypassing, and the hot set's reads hit.
    @Test func oneOffReadsBypassItUntilAHotSetAppears() throws {
        let window = 256
        let cache = try #require(DecodedValueCache(capacityBytes: 256 << 10, windowProbes: window))
        var lookups = 0
        func read(_ index: Int) -> DecodedValueCache.Lookup {
            lookups += 1
            let offset = UInt32(64 * (index + 1)), length = 100 + index % 50
            let found = cache.value(segment: 7, offset: offset, length: length)
            let expected = Self.value(segment: 7, offset: offset, length: length)
            switch found.lookup {
            case .hit: #expect(found.value == expected, "record \(index) came back wrong")
            case .admit: cache.insert(expected, segment: 7, offset: offset)
            case .skip: #expect(found.value == nil)
            }
            return found.lookup
        }
        // One window of one-off reads: every lookup looked and missed.
        for index in 0..<window { _ = read(index) }
        #expect(cache.isBypassing)
        #expect(cache.statistics.bypassed == 0)
        for index in window..<20 * window { _ = read(index) }
        let bypassing = cache.statistics
        #expect(cache.isBypassing)
        #expect(bypassing.hits == 0)
        #expect(bypassing.hits + bypassing.misses == lookups)
        // 19 windows' worth of lookups, one in 16 of which looked.
        let expectedBypassed = 19 * window - 19 * window / DecodedValueCache.bypassSampling
        #expect(bypassing.bypassed == expectedBypassed)

        // A hot set of 40 records, read round and round.
        var hotHits = 0
        for round in 0..<400 {
            for index in 0..<40 where read(index) == .hit && round >= 300 { hotHits += 1 }
        }
        #expect(!cache.isBypassing)
        #expect(hotHits > 99 * 40, "only \(hotHits) of the last 100 rounds' reads hit")
        let statistics = cache.statistics
        #expect(statistics.hits + statistics.misses == lookups)
        #expect(statistics.values >= 40)
    }

    /// A cache whose lookups mostly hit never bypasses, however many there are.
    @Test func aCacheThatHitsNeverBypasses() throws {
        let cache = try #require(DecodedValueCache(capacityBytes: 64 << 10, windowProbes: 64))
        var generator = SeededRandom(seed: 11)
        for _ in 0..<5_000 {
            // One read in ten is of a record never read before; the rest of twenty kept ones.
            let index = generator.below(10) == 0 ? 1_000 + generator.below(1_000_000) : generator.below(20)
            let offset = UInt32(64 * (index + 1))
            if cache.value(segment: 2, offset: offset, length: 80).lookup == .admit {
                cache.insert(Self.value(segment: 2, offset: offset, length: 80), segment: 2, offset: offset)
            }
            #expect(!cache.isBypassing || cache.statistics.hits < 100)
        }
        #expect(!cache.isBypassing)
        #expect(cache.statistics.bypassed == 0)
        #expect(cache.statistics.hits > 4_000)
    }

    @Test func threadsReadingTheSameRecordsGetTheirValues() throws {
        let cache = try #require(DecodedValueCache(capacityBytes: 32 << 10))
        let wrong = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var generator = SeededRandom(seed: UInt64(thread + 1))
            for _ in 0..<20_000 {
                let index = generator.below(80)
                let segment = UInt32(index % 3), offset = UInt32(64 + index * 64), length = 10 + index * 7
                let found = cache.value(segment: segment, offset: offset, length: length)
                let expected = Self.value(segment: segment, offset: offset, length: length)
                switch found.lookup {
                case .hit: if found.value != expected { wrong.add(1, ordering: .relaxed) }
                case .admit: cache.insert(expected, segment: segment, offset: offset)
                case .skip: break
                }
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
        #expect(cache.statistics.bytes <= 32 << 10)
        #expect(cache.statistics.hits > 0)
    }

    /// A replay at open reads every record once: it goes around the cache, which stays empty
    /// and counts nothing until something is read.
    @Test func replayDoesNotGoThroughTheCache() throws {
        let fileSystem = MemoryFileSystem()
        var generator = SeededRandom(seed: 9)
        do {
            let engine = try openTestEngine(fileSystem)
            for number in 0..<40 {
                var batch = WriteBatch()
                batch.put(testKey(number), testValue(&generator))
                try engine.write(batch)
            }
            try engine.close()
        }
        let engine = try openTestEngine(fileSystem)
        var replayed = 0
        try engine.recover { event in
            if case .put = event { replayed += 1 }
        }
        #expect(replayed == 40)
        let afterReplay = try engine.statistics()
        #expect(afterReplay.decodedCacheHits + afterReplay.decodedCacheMisses == 0)
        _ = try engine.value(for: testKey(1))
        #expect(try engine.statistics().decodedCacheMisses == 1)
        try engine.close()
    }

    /// Through an engine: values read again come from the cache and equal what was written,
    /// also after an overwrite (a new record, so a new address) and a compaction (records
    /// moved to new segments).
    @Test func engineReadsThroughTheCacheMatchWhatWasWritten() throws {
        let fileSystem = MemoryFileSystem()
        let engine = try openTestEngine(fileSystem)
        var generator = SeededRandom(seed: 5)
        var model: [[UInt8]: [UInt8]] = [:]
        for number in 0..<60 {
            var batch = WriteBatch()
            let value = testValue(&generator)
            batch.put(testKey(number), value)
            model[testKey(number)] = value
            try engine.write(batch)
        }
        func readAll() throws {
            for (key, value) in model { #expect(try engine.value(for: key) == value) }
        }
        try readAll()
        try readAll()
        try readAll()
        let afterReads = try engine.statistics()
        #expect(afterReads.decodedCacheHits > 0)
        #expect(afterReads.decodedCacheBytes > 0)
        for number in stride(from: 0, to: 60, by: 3) {
            var batch = WriteBatch()
            let value = testValue(&generator)
            batch.put(testKey(number), value)
            model[testKey(number)] = value
            try engine.write(batch)
        }
        try readAll()
        try engine.compact()
        try readAll()
        try readAll()
        #expect(try contents(of: engine) == model)
        try engine.close()
    }
}
