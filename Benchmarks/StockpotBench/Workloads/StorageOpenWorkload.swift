// storage.open: open a store that never saved a snapshot and replay every value (recover),
// against opening SQLite and reading every row. MB/s of Stockpot's segment bytes for both
// sides, so the ratio is the time ratio; target at least 500 MB/s on a 1 GB log.

import Foundation  // String(format:)
import StockpotStorage

struct StorageOpenWorkload: Workload {
    let name = "storage.open"
    let summary = "open + full replay of every value, no snapshot vs SQLite open + SELECT k, v (MB/s)"

    static let targetMegabytesPerSecond = 500.0

    func run(in context: BenchContext) throws -> BenchResult {
        let corpusKeys = context.storageKeys
        let corpusValues = context.storageValues
        let meanBytes = max(1, context.corpus.totalBytes / max(1, corpusKeys.count))
        let count = max(corpusKeys.count, ((context.options.openBytes ?? 0) + meanBytes - 1) / meanBytes)
        let keys = count == corpusKeys.count ? corpusKeys : (0..<count).map { StorageKeys.key(UInt64($0) + 1) }
        let values = count == corpusValues.count ? corpusValues : (0..<count).map { corpusValues[$0 % corpusValues.count] }
        let inputBytes = values.reduce(0) { $0 + $1.count }

        let directory = try ScratchDirectory(label: "open")
        defer { directory.remove() }
        let storePath = directory.file("store")
        let databasePath = directory.file("kv.db")
        let build = try StorageLoad.seconds {
            let loader = try StorageEngine.open(directory: storePath, options: StorageLoad.bulkOptions())
            try StorageLoad.put(into: loader, keys: keys, values: values)
            try loader.close()
        }
        let buildSQLite = try StorageLoad.seconds {
            let table = try SQLiteKeyValueTable(path: databasePath, synchronous: "OFF")
            try table.put(keys: keys, values: values, batchSize: StorageLoad.batchSize)
        }
        let segmentBytes = FileSize.total(in: storePath, withSuffix: ".seg")
        let sqliteBytes = FileSize.of(databasePath) + FileSize.of(databasePath + "-wal")
        context.progress(
            "storage.open: \(count) entries, \(inputBytes) value bytes; Stockpot segments \(segmentBytes) bytes "
                + String(format: "(built in %.2f s), SQLite %ld bytes (built in %.2f s)", build, sqliteBytes, buildSQLite))

        let stockpot = try Stopwatch.medianOfMeasured(runs: context.options.runs) {
            var replayed = 0
            var checksum: UInt64 = 0
            var engine: StorageEngine?
            let seconds = try StorageLoad.seconds {
                let opened = try StorageEngine.open(directory: storePath)
                try opened.recover { event in
                    if case .put(let key, let value) = event {
                        replayed += 1
                        checksum &+= UInt64(key.count + value.count)
                    }
                }
                engine = opened
            }
            try engine?.close()
            guard replayed == count else {
                throw BenchFailure("storage.open: the replay delivered \(replayed) values; \(count) were written")
            }
            Sink.consume(checksum)
            return seconds
        }
        let sqlite = try Stopwatch.medianOfMeasured(runs: context.options.runs) {
            var rows = 0
            var checksum: UInt64 = 0
            let seconds = try StorageLoad.seconds {
                let table = try SQLiteKeyValueTable(path: databasePath, synchronous: "OFF")
                try table.forEach { key, value in
                    rows += 1
                    checksum &+= UInt64(key.count + value.count)
                }
            }
            guard rows == count else {
                throw BenchFailure("storage.open: SQLite returned \(rows) rows; \(count) were written")
            }
            Sink.consume(checksum)
            return seconds
        }
        let megabytes = Double(segmentBytes) / 1e6
        let figure = megabytes / stockpot
        let target = Self.targetMegabytesPerSecond
        return BenchResult(
            workload: name, unit: .megabytesPerSecond, stockpot: figure, baseline: megabytes / sqlite,
            baselineName: "SQLite open + scan",
            note: StorageTarget.note(">= \(Int(target)) MB/s", met: figure >= target)
                + String(
                    format: "; %.0f MB of segments, %.0f MB input, SQLite file %.0f MB", megabytes, Double(inputBytes) / 1e6,
                    Double(sqliteBytes) / 1e6))
    }
}
