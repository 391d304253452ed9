// storage.compact: load, overwrite a seeded random half of the keys, reopen, time compact();
// against VACUUM plus a truncating checkpoint of the SQLite kv table after the same writes.
// MB/s of the live value bytes each side rewrites; target at least 150 MB/s.

import Foundation  // String(format:)
import StockpotStorage
import StockpotTools

struct StorageCompactWorkload: Workload {
    let name = "storage.compact"
    let summary = "compact() after overwriting half the keys, 8 MiB segments vs SQLite VACUUM (MB/s live)"

    static let targetMegabytesPerSecond = 150.0
    /// Small segments, so the log is many sealed segments.
    static let segmentRollBytes = 8 << 20
    /// Each run builds its store again (several seconds), so at most this many runs, and no
    /// warm-up: the load before each timed compaction warms everything a warm-up would.
    static let maximumRuns = 3

    func run(in context: BenchContext) throws -> BenchResult {
        let keys = context.storageKeys
        let values = context.storageValues
        let count = keys.count
        // A seeded random half of the keys, in random order, each overwritten with another
        // document (of about the same size).
        var random = SeededRandom(seed: context.storageSeed(3))
        var order = Array(0..<count)
        for index in stride(from: count - 1, to: 0, by: -1) {
            order.swapAt(index, random.below(index + 1))
        }
        let overwritten = order.prefix(count / 2)
        let newKeys = overwritten.map { keys[$0] }
        let newValues = overwritten.map { values[($0 + count / 2) % count] }
        var live = values.map(\.count)
        for (index, value) in zip(overwritten, newValues) { live[index] = value.count }
        let liveBytes = live.reduce(0, +)
        let liveMegabytes = Double(liveBytes) / 1e6
        let sample = 0..<min(200, newKeys.count)

        var options = StorageLoad.bulkOptions()
        options.segmentRollBytes = Self.segmentRollBytes
        options.backgroundCompaction = false
        let runs = min(context.options.runs, Self.maximumRuns)
        var report: CompactionReport?
        let stockpot = try Stopwatch.medianOfMeasured(runs: runs, warmUp: false) {
            let directory = try ScratchDirectory(label: "compact")
            defer { directory.remove() }
            let loader = try StorageEngine.open(directory: directory.path, options: options)
            try StorageLoad.put(into: loader, keys: keys, values: values)
            try StorageLoad.put(into: loader, keys: newKeys, values: newValues)
            try loader.close()
            let engine = try StorageEngine.open(directory: directory.path, options: options)
            let seconds = try StorageLoad.seconds { report = try engine.compact() }
            try StorageLoad.check(name, engine: engine, keys: newKeys, values: newValues, sample: sample)
            try engine.close()
            return seconds
        }
        let sqlite = try Stopwatch.medianOfMeasured(runs: runs, warmUp: false) {
            let directory = try ScratchDirectory(label: "compact-sqlite")
            defer { directory.remove() }
            let path = directory.file("kv.db")
            do {
                let loader = try SQLiteKeyValueTable(path: path, synchronous: "OFF")
                try loader.put(keys: keys, values: values, batchSize: StorageLoad.batchSize)
                try loader.put(keys: newKeys, values: newValues, batchSize: StorageLoad.batchSize)
            }
            // VACUUM with FULL sync: Stockpot's compaction fsyncs what it writes, whatever the
            // store's durability, so the baseline makes its rewrite durable too.
            let table = try SQLiteKeyValueTable(path: path, synchronous: "FULL")
            let seconds = try StorageLoad.seconds { try table.vacuum() }
            try StorageLoad.check(name, table: table, keys: newKeys, values: newValues, sample: sample)
            return seconds
        }
        guard let report else { throw BenchFailure("storage.compact: no compaction ran") }
        context.progress(
            "storage.compact: \(report.segmentsCompacted) segments, \(report.bytesBefore) bytes -> "
                + "\(report.segmentsWritten) segments, \(report.bytesAfter) bytes, \(report.recordsCopied) records copied")
        // The records compaction copied are live values like any other: their value bytes are
        // estimated at the mean live value size. VACUUM rewrites every live row.
        let copiedMegabytes = Double(report.recordsCopied) * Double(liveBytes) / Double(count) / 1e6
        let figure = copiedMegabytes / stockpot
        let target = Self.targetMegabytesPerSecond
        return BenchResult(
            workload: name, unit: .megabytesPerSecond, stockpot: figure, baseline: liveMegabytes / sqlite,
            baselineName: "SQLite VACUUM, sync FULL",
            note: StorageTarget.note(">= \(Int(target)) MB/s", met: figure >= target)
                + String(
                    format: "; %.2f s vs %.2f s; copied %ld of %ld live, segments %.0f -> %.0f MB",
                    stockpot, sqlite, report.recordsCopied, count,
                    Double(report.bytesBefore) / 1e6, Double(report.bytesAfter) / 1e6))
    }
}
