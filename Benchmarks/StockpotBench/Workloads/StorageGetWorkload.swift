// storage.get: point reads of seeded random existing keys from a store written and reopened
// (its files in the page cache), against SELECT v FROM kv WHERE k = ?. Each read is timed on
// its own with the monotonic clock; the median read, in microseconds. Target: below 2 us.

import Foundation  // String(format:)
import StockpotStorage
import StockpotTools

struct StorageGetWorkload: Workload {
    let name = "storage.get"
    let summary = "median point read of random existing keys, warm page cache vs SQLite kv (us/op)"

    static let targetMicroseconds = 2.0
    /// Reads per run.
    static let lookupCount = 100_000

    func run(in context: BenchContext) throws -> BenchResult {
        let keys = context.storageKeys
        let values = context.storageValues
        var random = SeededRandom(seed: context.storageSeed(2))
        let lookups = (0..<Self.lookupCount).map { _ in random.below(keys.count) }

        let directory = try ScratchDirectory(label: "get")
        defer { directory.remove() }
        let storePath = directory.file("store")
        let loader = try StorageEngine.open(directory: storePath, options: StorageLoad.bulkOptions())
        try StorageLoad.put(into: loader, keys: keys, values: values)
        try loader.close()
        let engine = try StorageEngine.open(directory: storePath)
        defer { try? engine.close() }
        do {
            let loader = try SQLiteKeyValueTable(path: directory.file("kv.db"), synchronous: "OFF")
            try loader.put(keys: keys, values: values, batchSize: StorageLoad.batchSize)
        }
        let table = try SQLiteKeyValueTable(path: directory.file("kv.db"), synchronous: "OFF")
        try StorageLoad.check(name, engine: engine, keys: keys, values: values, sample: lookups.prefix(200))
        try StorageLoad.check(name, table: table, keys: keys, values: values, sample: lookups.prefix(200))

        let overhead = MonotonicClock.readingOverhead()
        let stockpot = try Stopwatch.medianOfMeasured(runs: context.options.runs) {
            var durations = [Double]()
            durations.reserveCapacity(lookups.count)
            var checksum: UInt64 = 0
            for index in lookups {
                let key = keys[index]
                let start = MonotonicClock.nanoseconds()
                let value = try engine.value(for: key)
                let end = MonotonicClock.nanoseconds()
                durations.append(Double(end &- start))
                checksum &+= UInt64(value?.count ?? 0)
            }
            Sink.consume(checksum)
            return Stopwatch.median(durations) / 1000
        }
        let sqlite = try Stopwatch.medianOfMeasured(runs: context.options.runs) {
            var durations = [Double]()
            durations.reserveCapacity(lookups.count)
            var checksum: UInt64 = 0
            for index in lookups {
                let key = keys[index]
                let start = MonotonicClock.nanoseconds()
                let value = try table.value(for: key)
                let end = MonotonicClock.nanoseconds()
                durations.append(Double(end &- start))
                checksum &+= UInt64(value?.count ?? 0)
            }
            Sink.consume(checksum)
            return Stopwatch.median(durations) / 1000
        }
        let target = Self.targetMicroseconds
        return BenchResult(
            workload: name, unit: .microsecondsPerOperation, stockpot: stockpot, baseline: sqlite,
            baselineName: "SQLite kv",
            note: StorageTarget.note("median < \(Int(target)) us", met: stockpot < target)
                + String(format: "; clock reading %.0f ns, included", overhead))
    }
}
