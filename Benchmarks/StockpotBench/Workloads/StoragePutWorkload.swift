// storage.put: the corpus put in key order, 1,000 entries per WriteBatch with durability
// .none, against INSERT OR REPLACE into the SQLite kv table, 1,000 per transaction,
// synchronous=OFF. MB/s of value bytes; Stockpot's target is at least 300 MB/s.

import Foundation  // String(format:)
import StockpotStorage

struct StoragePutWorkload: Workload {
    let name = "storage.put"
    let summary = "sequential puts, 1,000 per batch, durability .none vs SQLite kv table (MB/s)"

    static let targetMegabytesPerSecond = 300.0

    func run(in context: BenchContext) throws -> BenchResult {
        let keys = context.storageKeys
        let values = context.storageValues
        let megabytes = context.corpusMegabytes
        let sample = stride(from: 0, to: keys.count, by: max(1, keys.count / 100))
        var segmentBytes = 0
        var dictionaryBytes = 0

        // Each run loads a fresh store; opening it before and closing it (the fsync) after the
        // puts are outside the figure.
        let stockpot = try Stopwatch.medianOfMeasured(runs: context.options.runs) {
            let directory = try ScratchDirectory(label: "put")
            defer { directory.remove() }
            let engine = try StorageEngine.open(directory: directory.path, options: StorageLoad.bulkOptions())
            let seconds = try StorageLoad.seconds {
                try StorageLoad.put(into: engine, keys: keys, values: values)
            }
            try StorageLoad.check(name, engine: engine, keys: keys, values: values, sample: sample)
            try engine.close()
            segmentBytes = FileSize.total(in: directory.path, withSuffix: ".seg")
            dictionaryBytes = FileSize.total(in: directory.path, withSuffix: ".dict")
            return seconds
        }
        let sqlite = try Stopwatch.medianOfMeasured(runs: context.options.runs) {
            let directory = try ScratchDirectory(label: "put-sqlite")
            defer { directory.remove() }
            let table = try SQLiteKeyValueTable(path: directory.file("kv.db"), synchronous: "OFF")
            let seconds = try StorageLoad.seconds {
                try table.put(keys: keys, values: values, batchSize: StorageLoad.batchSize)
            }
            try StorageLoad.check(name, table: table, keys: keys, values: values, sample: sample)
            return seconds
        }
        context.progress(
            "storage.put: segments \(segmentBytes) bytes for \(context.corpus.totalBytes) value bytes "
                + String(format: "(%.1f%%)", 100 * Double(segmentBytes) / Double(context.corpus.totalBytes))
                + ", dictionaries \(dictionaryBytes) bytes")
        let figure = megabytes / stockpot
        let target = Self.targetMegabytesPerSecond
        return BenchResult(
            workload: name, unit: .megabytesPerSecond, stockpot: figure, baseline: megabytes / sqlite,
            baselineName: "SQLite kv, sync OFF",
            note: StorageTarget.note(">= \(Int(target)) MB/s", met: figure >= target)
                + String(format: "; on disk %.1f%% of input", 100 * Double(segmentBytes) / Double(context.corpus.totalBytes)))
    }
}
