// store.ingest3 and store.ingest5: the corpus upserted from raw bytes into a new store, 1,000
// per durable write, against the SmartStore-shaped SQLite baseline inserting the same bytes
// (parsed by its codec), 1,000 per transaction, synchronous=FULL in WAL. Entries/s. The
// variants: the same corpus pretty-printed or escape-heavy (DocumentReshaping) with the three
// scalar indexes, and a full_text index on the 80-word Description (SQLite: its FTS5 table).

import Foundation  // String(format:)
import Stockpot

struct StoreIngestWorkload: Workload {
    let name: String
    let summary: String
    /// The soup's index specs, on both sides.
    let specs: [SoupIndexSpec]
    /// Stockpot's entries/s must be at least this many times the baseline's (`nil`: no target).
    let targetRatio: Double?
    /// How the corpus is written.
    var input = Input.compact

    /// The text both sides are handed.
    enum Input: String {
        case compact, pretty, escaped
    }

    /// Three scalar indexes (string, integer, floating); target 4x.
    static let threeScalar = StoreIngestWorkload(
        name: "store.ingest3", summary: "ingest, 3 scalar indexes, 1,000 per durable commit vs SmartStore SQLite (entries/s)",
        specs: StoreSoups.threeScalar, targetRatio: 4)
    /// One index of each of the five kinds; target 5x.
    static let fiveKinds = StoreIngestWorkload(
        name: "store.ingest5", summary: "ingest, all 5 index kinds, 1,000 per durable commit vs SmartStore SQLite (entries/s)",
        specs: StoreSoups.fiveKinds, targetRatio: 5)
    /// The three scalar indexes over the corpus pretty-printed (two-space indentation).
    static let threeScalarPretty = StoreIngestWorkload(
        name: "store.ingest3-pretty", summary: "ingest3 of the corpus pretty-printed vs SmartStore SQLite (entries/s)",
        specs: StoreSoups.threeScalar, targetRatio: nil, input: .pretty)
    /// The three scalar indexes over the corpus with vowels and non-ASCII letters as \uXXXX.
    static let threeScalarEscaped = StoreIngestWorkload(
        name: "store.ingest3-escaped", summary: "ingest3 of the corpus escape-heavy (\\uXXXX, \\\") vs SmartStore SQLite (entries/s)",
        specs: StoreSoups.threeScalar, targetRatio: nil, input: .escaped)
    /// The three scalar indexes plus full_text on Description (about 80 words a document).
    static let fullText = StoreIngestWorkload(
        name: "store.ingest-fulltext", summary: "ingest3 plus full_text on the 80-word Description vs SQLite FTS5 (entries/s)",
        specs: StoreSoups.threeScalar + [SoupIndexSpec(path: "Description", type: .fullText)], targetRatio: nil)

    static let all = [threeScalar, fiveKinds, threeScalarPretty, threeScalarEscaped, fullText]

    func run(in context: BenchContext) throws -> BenchResult {
        switch context.options.baselineJSON {
        case .stockpot: try run(in: context, codec: StockpotJSONCodec())
        case .foundation: try run(in: context, codec: FoundationCodec())
        }
    }

    private func run<Codec: SoupCodec>(in context: BenchContext, codec: Codec) throws -> BenchResult {
        let documents =
            switch input {
            case .compact: context.storeDocuments
            case .pretty: try context.prettyDocuments()
            case .escaped: try context.escapedDocuments()
            }
        let sample = StoreCheck.sample(documents.count)
        var (storeBytes, sqliteBytes) = (0, 0)
        var (cpu, sqliteCPU) = ([Double](), [Double]())

        // The sides take turns, run by run (the machine's speed drifts). Each run ingests into
        // a new store or database; making it (the soup or table registered), checking it and
        // closing it (a store's snapshot) are outside the figure. Every run's files are removed
        // after the last run, not after their own: this file system is mounted with `discard`,
        // and the device's work on a removed run's blocks slowed the next run, the other
        // side's (a 164 MB file removed before an ingest3 run made it 0.1-0.15 s slower).
        // Each run's files do leave the page cache when the run is done (untimed), so that the
        // next run, of either side, writes into memory just freed: on this VM, guest memory
        // the host has not backed costs about 20 us a page at first touch (0.2 GB/s against
        // 2 GB/s in a C test), and a page cache growing by ~210 MB a pair of runs made both
        // sides' later runs 20-40% slower.
        var finished: [ScratchDirectory] = []
        defer { for directory in finished { directory.remove() } }
        let (stockpot, sqlite, turns) = try Stopwatch.mediansInTurns(runs: context.options.runs) {
            let directory = try ScratchDirectory(label: "ingest")
            defer { finished.append(directory) }
            let store = try StoreLoad.newStore(at: directory.file("store"), specs: specs, durable: true)
            let seconds = try ProcessCPUTime.measure { try StoreLoad.ingest(documents, into: store) }
            cpu.append(seconds.cpu)
            try StoreCheck.store(name, store, documents: documents, sample: sample)
            try store.close()
            storeBytes = FileSize.total(in: directory.file("store"), withSuffix: ".seg")
            directory.evictFromPageCache()
            return seconds.wall
        } _: {
            let directory = try ScratchDirectory(label: "ingest-sqlite")
            defer { finished.append(directory) }
            let seconds: (wall: Double, cpu: Double)
            do {  // the database closes at the end of the block
                let database = try StoreLoad.newBaseline(
                    at: directory.file("smartstore.db"), codec: codec, specs: specs, synchronous: context.baselineSynchronous)
                seconds = try ProcessCPUTime.measure { try database.insert(json: documents) }
                sqliteCPU.append(seconds.cpu)
                try StoreCheck.baseline(name, database, documents: documents, sample: sample)
            }
            sqliteBytes = directory.totalFileBytes()
            directory.evictFromPageCache()
            return seconds.wall
        }
        let (stockpotCPU, baselineCPU) = (Stopwatch.median(cpu), Stopwatch.median(sqliteCPU))
        let ratio = sqlite / stockpot
        let count = Double(documents.count)
        return BenchResult(
            workload: name, unit: .entriesPerSecond, stockpot: count / stockpot, baseline: count / sqlite,
            baselineName: (SQLiteLibrary.current.isSQLCipher ? "SmartStore SQLCipher, " : "SmartStore SQLite, ") + codec.name,
            note: (targetRatio.map { StorageTarget.note(String(format: ">= %.0fx", $0), met: ratio >= $0) + "; " } ?? "")
                + String(format: "%@ input of %.0f MB; CPU", input.rawValue, Double(documents.reduce(0) { $0 + $1.count }) / 1e6)
                + String(
                    format: " %.2f s vs %.2f s (%.2fx); wall %.2f s vs %.2f s", stockpotCPU, baselineCPU, baselineCPU / stockpotCPU, stockpot, sqlite)
                + "; \(turns) runs a side, in turns"
                + String(format: "; durable, 1,000/commit; on disk %.0f MB vs SQLite %.0f MB", Double(storeBytes) / 1e6, Double(sqliteBytes) / 1e6),
            target: targetRatio, cpuRatio: baselineCPU / stockpotCPU,
            extras: [
                ("stockpotCPUSeconds", stockpotCPU), ("baselineCPUSeconds", baselineCPU),
                ("stockpotDiskBytes", Double(storeBytes)), ("baselineDiskBytes", Double(sqliteBytes)),
                ("inputBytes", Double(documents.reduce(0) { $0 + $1.count })),
            ])
    }
}
