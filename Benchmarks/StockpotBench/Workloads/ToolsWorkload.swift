// tools.import, tools.dump and tools.restore: the `stockpot` data commands' code paths on the
// corpus as JSON Lines, in a store with one index of each of the five kinds. Import is
// compared with SQLite's fastest load of the same documents (the SmartStore schema, WAL,
// synchronous=OFF, one transaction, prepared inserts) and with the library's own bulk ingest;
// dump and restore are MB/s of dump file, against a JSON Lines export of the same soup from
// SQLite and that fastest SQLite load.

import Foundation  // String(format:)
import Stockpot
import StockpotTools

struct ToolsWorkload: Workload {
    enum Kind { case importLines, dump, restore }

    let name: String
    let summary: String
    let kind: Kind

    static let importLines = ToolsWorkload(
        name: "tools.import",
        summary: "stockpot import of the corpus as JSON Lines vs SQLite's fastest load (entries/s); library bulk ingest in the note",
        kind: .importLines)
    static let dump = ToolsWorkload(
        name: "tools.dump", summary: "stockpot dump of the corpus store vs a JSON Lines export from SQLite (MB/s)", kind: .dump)
    static let restore = ToolsWorkload(
        name: "tools.restore", summary: "stockpot restore of the corpus dump vs SQLite's fastest load (MB/s)", kind: .restore)

    static let all = [importLines, dump, restore]

    func run(in context: BenchContext) throws -> BenchResult {
        let documents = context.storeDocuments
        let scratch = try ScratchDirectory(label: "tools")
        defer { scratch.remove() }
        let lines = scratch.file("corpus.jsonl")
        try Self.writeLines(documents, to: lines)
        switch kind {
        case .importLines: return try runImport(context, documents, lines, scratch)
        case .dump: return try runDump(context, documents, scratch)
        case .restore: return try runRestore(context, documents, scratch)
        }
    }

    // MARK: import

    private func runImport(_ context: BenchContext, _ documents: [[UInt8]], _ lines: String, _ scratch: ScratchDirectory) throws -> BenchResult {
        let count = Double(documents.count)
        var importCPU: [Double] = []
        var libraryCPU: [Double] = []
        // The two Stockpot sides take runs in turns, with store.ingest's file discipline
        // (StoreIngestWorkload): each run's store leaves the page cache when the run is done
        // and is removed after the last run. Runs in turns keep the machine's drift off the
        // ratio (all import runs first and the library's after them let it move the ratio
        // from 91% to 65%). The lines file itself was synced when written: no writeback of it
        // runs under either.
        var finished: [ScratchDirectory] = []
        defer {
            for directory in finished { directory.remove() }
            // The removals' writeback and discards are done before the next workload times.
            QuietDisk.settle()
        }
        let (imported, library, _) = try Stopwatch.mediansInTurns(runs: context.options.runs) {
            let directory = try ScratchDirectory(label: "tools-import")
            defer { finished.append(directory) }
            let store = try Self.newStore(directory.file("store"))
            let descriptor = open(lines, O_RDONLY)
            defer { close(descriptor) }
            var summary = ImportSummary()
            let seconds = try ProcessCPUTime.measure {
                summary = try DocumentImporter(store: store, soup: StoreSoups.name).run(reading: descriptor)
                try store.close()  // the import's one durable commit
            }
            guard summary.imported == documents.count else {
                throw BenchFailure("\(name): imported \(summary.imported) of \(documents.count)")
            }
            importCPU.append(seconds.cpu)
            directory.evictFromPageCache()
            return seconds.wall
        } _: {
            let directory = try ScratchDirectory(label: "tools-ingest")
            defer { finished.append(directory) }
            let store = try Self.newStore(directory.file("store"))
            let seconds = try ProcessCPUTime.measure {
                try StoreLoad.ingest(documents, into: store)
                try store.close()
            }
            libraryCPU.append(seconds.cpu)
            directory.evictFromPageCache()
            return seconds.wall
        }
        let sqlite = try Self.sqliteFastestLoad(context, documents, scratch)
        let share = library / imported
        return BenchResult(
            workload: name, unit: .entriesPerSecond, stockpot: count / imported, baseline: count / sqlite,
            baselineName: "SQLite WAL, synchronous=OFF, one transaction",
            note: StorageTarget.note(">= 90% of the library's bulk ingest", met: share >= 0.9)
                + String(
                    format:
                        "; import %.0f entries/s = %.0f%% of library bulk ingest %.0f entries/s (1,000 per batch, durability none, close included); CPU %.2f s vs %.2f s (%.0f%%)",
                    count / imported, share * 100, count / library, Stopwatch.median(importCPU), Stopwatch.median(libraryCPU),
                    Stopwatch.median(libraryCPU) / Stopwatch.median(importCPU) * 100))
    }

    // MARK: dump

    private func runDump(_ context: BenchContext, _ documents: [[UInt8]], _ scratch: ScratchDirectory) throws -> BenchResult {
        let store = try Self.newStore(scratch.file("store"))
        try StoreLoad.ingest(documents, into: store)
        var bytes = 0
        let seconds = try Stopwatch.medianOfMeasured(runs: context.options.runs) {
            let path = scratch.file("dump-\(UUID().uuidString)")
            let start = MonotonicClock.nanoseconds()
            let output = try ByteOutput.file(path)
            try DumpCommand.write(store.view(), to: output)
            try output.finish()
            let elapsed = Double(MonotonicClock.nanoseconds() &- start) / 1e9
            bytes = output.byteCount
            try? FileManager.default.removeItem(atPath: path)
            return elapsed
        }
        try store.close()
        // SQLite: the same soup loaded (untimed), then every row's JSON written as a line.
        let database = try Self.sqliteBaseline(context, scratch.file("export.db"), batchSize: documents.count)
        _ = try database.insert(json: documents)
        var exported = 0
        let sqlite = try Stopwatch.medianOfMeasured(runs: context.options.runs) {
            let path = scratch.file("export-\(UUID().uuidString)")
            let start = MonotonicClock.nanoseconds()
            let output = try ByteOutput.file(path)
            let statement = try database.database.prepare("SELECT soup FROM \(database.tableName) ORDER BY id")
            while try statement.step() {
                try statement.withColumnBytes(0) { row in try output.append(row) }
                try output.append(byte: 0x0A)
            }
            try output.finish()
            exported = output.byteCount
            let elapsed = Double(MonotonicClock.nanoseconds() &- start) / 1e9
            try? FileManager.default.removeItem(atPath: path)
            return elapsed
        }
        return BenchResult(
            workload: name, unit: .megabytesPerSecond, stockpot: Double(bytes) / 1e6 / seconds,
            baseline: Double(exported) / 1e6 / sqlite, baselineName: "SQLite SELECT soup ... as JSON Lines",
            note: String(
                format: "dump %.1f MB in %.3f s (ids, dates, checksum included); SQLite export %.1f MB in %.3f s",
                Double(bytes) / 1e6, seconds, Double(exported) / 1e6, sqlite))
    }

    // MARK: restore

    private func runRestore(_ context: BenchContext, _ documents: [[UInt8]], _ scratch: ScratchDirectory) throws -> BenchResult {
        let source = try Self.newStore(scratch.file("source"))
        try StoreLoad.ingest(documents, into: source)
        let dumpPath = scratch.file("corpus.dump")
        let output = try ByteOutput.file(dumpPath)
        try DumpCommand.write(source.view(), to: output)
        try output.finish()
        try source.close()
        let dumpBytes = output.byteCount
        let seconds = try Stopwatch.medianOfMeasured(runs: context.options.runs) {
            let path = scratch.file("restore-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let store = try Self.newStore(path, registering: false)
            let descriptor = open(dumpPath, O_RDONLY)
            defer { close(descriptor) }
            let start = MonotonicClock.nanoseconds()
            let summary = try RestoreLoader(store: store).run(reading: descriptor)
            try store.close()
            let elapsed = Double(MonotonicClock.nanoseconds() &- start) / 1e9
            guard summary.entries == documents.count else {
                throw BenchFailure("\(name): restored \(summary.entries) of \(documents.count)")
            }
            return elapsed
        }
        let sqlite = try Self.sqliteFastestLoad(context, documents, scratch)
        let documentBytes = documents.reduce(0) { $0 + $1.count }
        return BenchResult(
            workload: name, unit: .megabytesPerSecond, stockpot: Double(dumpBytes) / 1e6 / seconds,
            baseline: Double(documentBytes) / 1e6 / sqlite, baselineName: "SQLite WAL, synchronous=OFF, one transaction",
            note: String(
                format: "restore of a %.1f MB dump in %.3f s (%.0f entries/s, close included); SQLite loads the %.1f MB of documents in %.3f s",
                Double(dumpBytes) / 1e6, seconds, Double(documents.count) / seconds, Double(documentBytes) / 1e6, sqlite))
    }

    // MARK: shared

    /// A new store with relaxed durability (as import and restore open theirs).
    private static func newStore(_ path: String, registering: Bool = true) throws -> Store {
        var options = StoreOptions()
        options.durability = .none
        let store = try Store.open(directory: path, options: options)
        if registering { try store.registerSoup(StoreSoups.name, indexSpecs: StoreSoups.stockpotSpecs(StoreSoups.fiveKinds)) }
        return store
    }

    private static func sqliteBaseline(_ context: BenchContext, _ path: String, batchSize: Int) throws -> SmartStoreBaseline<StockpotJSONCodec> {
        try SmartStoreBaseline(
            path: path, codec: StockpotJSONCodec(), soupName: StoreSoups.name, indexSpecs: StoreSoups.fiveKinds,
            configuration: .init(synchronous: "OFF", batchSize: batchSize))
    }

    /// SQLite's fastest load of `documents`: one transaction, prepared inserts, WAL with
    /// synchronous=OFF, the SmartStore schema with the same five indexes; median seconds.
    private static func sqliteFastestLoad(_ context: BenchContext, _ documents: [[UInt8]], _ scratch: ScratchDirectory) throws -> Double {
        try Stopwatch.medianOfMeasured(runs: context.options.runs) {
            let loadDirectory = try ScratchDirectory(label: "tools-sqlite")
            defer { loadDirectory.remove() }
            let database = try sqliteBaseline(context, loadDirectory.file("load.db"), batchSize: documents.count)
            let start = MonotonicClock.nanoseconds()
            _ = try database.insert(json: documents)
            let elapsed = Double(MonotonicClock.nanoseconds() &- start) / 1e9
            guard try database.count() == documents.count else { throw BenchFailure("SQLite holds the wrong number of rows") }
            return elapsed
        }
    }

    private static func writeLines(_ documents: [[UInt8]], to path: String) throws {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(documents.reduce(0) { $0 + $1.count + 1 })
        for document in documents {
            bytes += document
            bytes.append(0x0A)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        guard descriptor >= 0, fsync(descriptor) == 0 else { throw BenchFailure("cannot sync \(path)") }
    }
}
