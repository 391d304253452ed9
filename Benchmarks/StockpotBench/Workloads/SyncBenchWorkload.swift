// sync.down and sync.up (docs/sync.md; docs/benchmarks.md, "Sync"): Stockpot's sync against
// a throwaway PostgreSQL server this process starts, each against what a careful engineer
// would script instead. sync.down: --docs server documents (100,000 by default) synced into
// an empty store, against `psql -c "COPY (SELECT doc ...) TO STDOUT" | stockpot import`.
// sync.up: 10,000 locally changed entries sent to the server, against reading the same
// changes from the change feed, COPY into a staging table and one INSERT ... ON CONFLICT.
// Entries per second, best of three passes a side, sides alternating; the server round trips
// per 1,000 entries are kept as an extra figure.

import Foundation
import Stockpot
import StockpotJSON
import StockpotSync
import StockpotTestSupport

/// The server, database and soup table the sync workloads share in one process.
final class SyncBenchServer {
    let postgres: TestPostgres
    let server: String
    let database = "bench"
    let table: String
    static let soup = "Account"

    init() throws {
        postgres = try TestPostgres.makePrivate()
        try PGConnection(postgres.connectionString()).execute("CREATE DATABASE \(database)")
        server = postgres.connectionString(database: database)
        try StoreSync.initializeServer(server, soups: [Self.soup])
        table = "stockpot." + SQLText.identifier(ServerSchema.tableName(forSoup: Self.soup))
    }

    /// An Account document of the benchmark's shape (no backslashes, tabs or newlines, so
    /// COPY's text format carries it unchanged), about 230 bytes.
    static func document(_ index: Int, key: String, revision: Int = 0) -> JSONValue {
        let industries = ["Energy", "Retail", "Banking", "Media", "Health", "Transport", "Software", "Farming"]
        let cities = ["Lyon", "Osaka", "Quito", "Perth", "Tromso", "Accra", "Denver", "Pune"]
        return [
            "Id": .string(key), "name": .string("Account \(index)"), "industry": .string(industries[index % 8]),
            "revenue": .integer(Int64(index) * 7_919 % 10_000_000), "city": .string(cities[(index / 8) % 8]),
            "active": .bool(index % 3 != 0), "employees": .integer(Int64(index % 5_000)), "revision": .integer(Int64(revision)),
            "tags": .array([.string("t\(index % 17)"), .string("t\(index % 29)")]),
            "description": .string("Customer account number \(index), kept in step with the server by sync."),
        ]
    }

    static func key(_ index: Int) -> String { String(format: "0190b000-0000-7000-8000-%012d", index) }

    /// A fresh store with the soup (key and two indexes).
    static func store(_ path: String) throws -> Store {
        let store = try Store.open(directory: path)
        try store.registerSoup(
            soup,
            indexSpecs: [
                IndexSpec(path: "Id", type: .string, default: .newID), IndexSpec(path: "name", type: .string),
                IndexSpec(path: "industry", type: .string),
            ])
        return store
    }

    func stop() { try? postgres.stop(mode: "immediate") }
}

struct SyncDownWorkload: Workload {
    let name = "sync.down"
    let summary = "sync down of --docs server documents into an empty store vs COPY TO STDOUT | stockpot import (entries/s)"

    func run(in context: BenchContext) throws -> BenchResult {
        let count = context.options.documentCount
        let bench = try SyncBenchServer()
        defer { bench.stop() }
        var data: [UInt8] = []
        for index in 0..<count {
            data +=
                Array(SyncBenchServer.key(index).utf8) + [9] + JSONWriter.write(SyncBenchServer.document(index, key: SyncBenchServer.key(index)))
                + Array("\tbench\n".utf8)
        }
        let loader = try PGConnection(bench.server)
        try loader.copyIn("COPY \(bench.table) (key, doc, device) FROM STDIN", data: data)
        try loader.execute("VACUUM ANALYZE \(bench.table)")
        let scratch = try ScratchDirectory(label: "sync-down")
        defer { scratch.remove() }
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("stockpot").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchFailure("\(name): the stockpot binary is not beside the benchmark (build it: swift build -c release --product stockpot)")
        }
        let psql = bench.postgres.binaries + "/psql"
        var roundTrips = 0
        var best = (stockpot: Double.infinity, pipeline: Double.infinity)
        for pass in 0..<3 {
            let ours = scratch.file("ours-\(pass)")
            let store = try SyncBenchServer.store(ours)
            var start = MonotonicClock.nanoseconds()
            let summary = try StoreSync(store: store, server: bench.server).perform(.syncDown, soup: SyncBenchServer.soup, options: SyncOptions())
            best.stockpot = min(best.stockpot, Double(MonotonicClock.nanoseconds() - start))
            roundTrips = summary.roundTrips
            let synced = try store.count(.all(), in: SyncBenchServer.soup)
            try store.close()

            let theirs = scratch.file("pipeline-\(pass)")
            let command =
                "\(psql) -h \(bench.postgres.directory) -U postgres -d \(bench.database) -Atq -c \"COPY (SELECT doc FROM \(bench.table) WHERE NOT deleted) TO STDOUT\""
                + " | \(binary) import \(theirs) --soup \(SyncBenchServer.soup) --index Id:string --index name:string --index industry:string"
            start = MonotonicClock.nanoseconds()
            let status = try ChildProcess.run(["/bin/sh", "-c", command], output: scratch.file("pipeline.log"))
            best.pipeline = min(best.pipeline, Double(MonotonicClock.nanoseconds() - start))
            let imported = try Store.open(directory: theirs)
            let importedCount = try imported.count(.all(), in: SyncBenchServer.soup)
            try imported.close()
            guard status == 0, synced == count, importedCount == count else {
                throw BenchFailure("\(name): sync down gave \(synced) entries and the pipeline \(importedCount) (status \(status)) of \(count)")
            }
        }
        let perThousand = Double(roundTrips) * 1_000 / Double(count)
        return BenchResult(
            workload: name, unit: .entriesPerSecond, stockpot: Double(count) / (best.stockpot / 1e9),
            baseline: Double(count) / (best.pipeline / 1e9), baselineName: "COPY TO STDOUT | stockpot import",
            note: "\(count) documents; \(roundTrips) round trips (\(String(format: "%.1f", perThousand)) per 1,000); target >= 0.8x",
            target: 0.8, extras: [("roundTripsPer1000", perThousand)])
    }
}

struct SyncUpWorkload: Workload {
    let name = "sync.up"
    let summary = "sync up of 10,000 changed entries vs change feed + COPY into a staging table + INSERT ... ON CONFLICT (entries/s)"
    static let count = 10_000

    func run(in context: BenchContext) throws -> BenchResult {
        let count = Self.count
        let bench = try SyncBenchServer()
        defer { bench.stop() }
        let scratch = try ScratchDirectory(label: "sync-up")
        defer { scratch.remove() }
        let store = try SyncBenchServer.store(scratch.file("store"))
        defer { try? store.close() }
        let sync = StoreSync(store: store, server: bench.server)
        var revision = 0
        func changeEverything() throws {
            revision += 1
            let documents = (0..<count).map { SyncBenchServer.document($0, key: SyncBenchServer.key($0), revision: revision) }
            _ = try store.upsert(documents, into: SyncBenchServer.soup, externalIdPath: "Id")
        }
        try changeEverything()
        _ = try sync.perform(.syncUp, soup: SyncBenchServer.soup, options: SyncOptions())
        let connection = try PGConnection(bench.server)
        var roundTrips = 0
        var best = (stockpot: Double.infinity, copy: Double.infinity)
        for _ in 0..<3 {
            try changeEverything()
            var start = MonotonicClock.nanoseconds()
            let summary = try sync.perform(.syncUp, soup: SyncBenchServer.soup, options: SyncOptions())
            best.stockpot = min(best.stockpot, Double(MonotonicClock.nanoseconds() - start))
            roundTrips = summary.roundTrips
            guard summary.applied == count else { throw BenchFailure("\(name): sync up applied \(summary.applied) of \(count)") }

            let since = store.lastSequence
            try changeEverything()
            start = MonotonicClock.nanoseconds()
            var data: [UInt8] = []
            var position = since
            var sent = 0
            while true {
                let page = try store.changes(since: position, soups: [SyncBenchServer.soup], limit: 1_000)
                for change in page.changes {
                    guard let document = change.document else { continue }
                    let stripped = DocumentContent.stripped(document)
                    data += Array((stripped.objectValue?["Id"]?.stringValue ?? "").utf8) + [9] + JSONWriter.write(stripped) + [10]
                    sent += 1
                }
                position = page.lastSequence
                if !page.hasMore { break }
            }
            try connection.execute("BEGIN; CREATE TEMP TABLE staging (key text, doc jsonb) ON COMMIT DROP")
            try connection.copyIn("COPY staging FROM STDIN", data: data)
            try connection.execute(
                """
                INSERT INTO \(bench.table) (key, doc, deleted, device) SELECT key, doc, false, 'bench' FROM staging
                ON CONFLICT (key) DO UPDATE SET doc = EXCLUDED.doc, deleted = false, device = EXCLUDED.device
                """)
            try connection.execute("COMMIT")
            best.copy = min(best.copy, Double(MonotonicClock.nanoseconds() - start))
            guard sent == count else { throw BenchFailure("\(name): the feed gave \(sent) changes of \(count)") }
            // The pipeline's writes are not in the store's sync state: mark them synced the
            // way sync would find them (same content), untimed, by a sync up that adopts them.
            _ = try sync.perform(.syncUp, soup: SyncBenchServer.soup, options: SyncOptions())
        }
        let perThousand = Double(roundTrips) * 1_000 / Double(count)
        return BenchResult(
            workload: name, unit: .entriesPerSecond, stockpot: Double(count) / (best.stockpot / 1e9),
            baseline: Double(count) / (best.copy / 1e9), baselineName: "feed + COPY staging + INSERT ON CONFLICT",
            note: "\(count) changes; \(roundTrips) round trips (\(String(format: "%.1f", perThousand)) per 1,000); target >= 0.5x",
            target: 0.5, extras: [("roundTripsPer1000", perThousand)])
    }
}
