// store.read-while-ingest and store.read-while-ingest2: on a private copy of the query fixture,
// 1 or 2 reader threads get random accounts by id (raw JSON bytes, ids uniform over the
// fixture) while the main thread ingests half the corpus again as new entries, 1,000 per
// durable commit (Stockpot .full; SQLite synchronous=FULL in WAL, each reader on a connection
// of its own, set up as `--sqlite` says). The sides run one after the other. The figure is the
// readers' median us a get; p99, the readers' gets/s and the writer's entries/s are kept.

import Foundation  // String(format:)
import Stockpot
import StockpotTools

struct StoreReadWhileIngestWorkload: Workload {
    let name: String
    let summary: String
    let readers: Int

    static let all = [
        StoreReadWhileIngestWorkload(
            name: "store.read-while-ingest",
            summary: "gets on 1 thread while a writer ingests, 1,000 per durable commit vs SQLite WAL (median us/op)",
            readers: 1),
        StoreReadWhileIngestWorkload(
            name: "store.read-while-ingest2",
            summary: "gets on 2 threads while a writer ingests, 1,000 per durable commit vs SQLite WAL (median us/op)",
            readers: 2),
    ]

    /// A connection of one SQLite reader, with the get statement compiled.
    // @unchecked Sendable: used by one reader thread only once handed to it.
    private final class SQLiteReader: @unchecked Sendable {
        let database: SQLiteDatabase
        let get: SQLiteStatement

        init(path: String, table: String, memoryBytes: Int) throws {
            database = try SQLiteDatabase(path: path)
            try database.execute("PRAGMA busy_timeout=10000")
            if memoryBytes > 0 {
                try database.execute("PRAGMA cache_size=-\(memoryBytes / 1024)")
                try database.execute("PRAGMA mmap_size=\(memoryBytes)")
            }
            get = try database.prepare("SELECT soup FROM \(table) WHERE id = ?")
        }

        /// Entry `id`'s JSON bytes, copied out, or `nil`.
        func json(_ id: Int64) throws -> [UInt8]? {
            get.reset()
            try get.bind(.integer(id), at: 1)
            guard try get.step() else { return nil }
            let bytes = get.withColumnBytes(0) { Array($0) }
            get.reset()
            return bytes
        }
    }

    func run(in context: BenchContext) throws -> BenchResult {
        let fixture = try QueryFixture.privateCopy(in: context)
        defer { fixture.close() }
        _ = try fixture.reopenStore(context: context, durability: .full)
        try fixture.baseline.database.execute("PRAGMA synchronous=FULL")
        try fixture.baseline.database.execute("PRAGMA busy_timeout=10000")
        let documents = context.storeDocuments
        let writes = Array(documents.prefix(documents.count / 2))
        var random = SeededRandom(seed: context.storageSeed(120))
        let ids = (0..<(1 << 20)).map { _ in Int64(random.below(documents.count)) + 1 }
        let sqliteReaders = try (0..<readers).map { _ in
            try SQLiteReader(
                path: fixture.directory.file("smartstore.db"), table: fixture.baseline.tableName, memoryBytes: fixture.sqliteMemoryBytes)
        }
        let store = fixture.store
        try checkBeforeTiming(store, sqliteReaders, documents: documents)

        var figures: [Int: (times: [Double], writerSeconds: Double)] = [:]
        for side in SideOrder.sides(turn: 0) {
            let stop = AtomicFlag()
            let threads = (0..<readers).map { reader in
                let sqlite = sqliteReaders[reader]
                return TimedReaderThread(stop: stop) { call in
                    let id = ids[(call &* self.readers &+ reader) % ids.count]
                    return side == 0
                        ? try store.retrieve(json: [id], from: StoreSoups.name).first?.count ?? 0 : try sqlite.json(id)?.count ?? 0
                }
            }
            for thread in threads { thread.start() }
            let start = MonotonicClock.nanoseconds()
            do {
                if side == 0 { try StoreLoad.ingest(writes, into: store) } else { try fixture.baseline.insert(json: writes) }
            } catch {
                stop.set()
                for thread in threads { _ = try? thread.join() }
                throw error
            }
            let writerSeconds = Double(MonotonicClock.nanoseconds() &- start) / 1e9
            stop.set()
            figures[side] = (try threads.flatMap { try $0.join() }, writerSeconds)
        }
        let expected = documents.count + writes.count
        let ours = try store.view().count(of: StoreSoups.name), theirs = try fixture.baseline.count()
        guard ours == expected, theirs == expected else {
            throw BenchFailure("\(name): \(ours) and \(theirs) accounts after the ingest, not \(expected)")
        }

        let mine = figures[0]!, other = figures[1]!
        let (p99Ours, p99Theirs) = (Stopwatch.percentile(mine.times, 0.99), Stopwatch.percentile(other.times, 0.99))
        let (readsOurs, readsTheirs) = (Double(mine.times.count) / mine.writerSeconds, Double(other.times.count) / other.writerSeconds)
        let (writesOurs, writesTheirs) = (Double(writes.count) / mine.writerSeconds, Double(writes.count) / other.writerSeconds)
        return BenchResult(
            workload: name, unit: .microsecondsPerOperation, stockpot: Stopwatch.median(mine.times),
            baseline: Stopwatch.median(other.times), baselineName: QueryWorkload.baselineName(context) + ", WAL, synchronous=FULL",
            note: String(
                format: "%d reader(s); p99 %.1f vs %.1f us; gets/s %.0f vs %.0f; writer %.0f vs %.0f entries/s (%d entries)",
                readers, p99Ours, p99Theirs, readsOurs, readsTheirs, writesOurs, writesTheirs, writes.count),
            extras: [
                ("stockpotP99", p99Ours), ("baselineP99", p99Theirs),
                ("stockpotReadsPerSecond", readsOurs), ("baselineReadsPerSecond", readsTheirs),
                ("stockpotWriterEntriesPerSecond", writesOurs), ("baselineWriterEntriesPerSecond", writesTheirs),
            ])
    }

    /// Throws unless the store and every reader connection return the same account for a
    /// sample of ids.
    private func checkBeforeTiming(_ store: Store, _ readers: [SQLiteReader], documents: [[UInt8]]) throws {
        for id in StoreCheck.sample(documents.count) {
            let expected = try JSONReader.parse(documents[Int(id) - 1])["Id"]?.stringValue
            let ours = try store.retrieve(json: [id], from: StoreSoups.name).first.map { try JSONReader.parse($0)["Id"]?.stringValue }
            guard ours == expected else { throw BenchFailure("\(name): Stockpot returned the wrong account for entry \(id)") }
            for reader in readers {
                let theirs = try reader.json(id).map { try JSONReader.parse($0)["Id"]?.stringValue }
                guard theirs == expected else { throw BenchFailure("\(name): an SQLite reader returned the wrong account for entry \(id)") }
            }
        }
    }
}
