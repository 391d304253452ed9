// The command line: workloads by name and the options listed in `usage`. Hand-written;
// a usage error is `Error: ...` plus usage on standard error and exit status 64.

/// A mistake on the command line; reported with the usage text and exit status 64.
struct UsageError: Error {
    let message: String
}

/// How results are printed.
enum OutputFormat: String {
    /// Aligned columns for people.
    case text
    /// One compact JSON object per line for scripts.
    case json
}

/// The JSON library the SQLite baseline uses around SQLite.
enum BaselineJSON: String {
    /// StockpotJSON: the comparison isolates storage and indexing (the default).
    case stockpot
    /// Foundation's JSONSerialization, as iOS SmartStore uses NSJSONSerialization.
    case foundation
}

/// The SQLite connection of the query and sql workloads.
enum SQLiteSetup: String {
    /// SmartStore's: SQLite's default page cache (2 MB), no memory mapping.
    case smartStore = "smartstore"
    /// Tuned at equal memory, as a GRDB user would: `cache_size` at least the memory
    /// Stockpot's indexes and caches hold, the file memory-mapped.
    case tuned
    /// SmartStore's real set-up: SQLCipher (Debian's, loaded at run time) keyed as SmartStore
    /// keys it, against an encrypted Stockpot store (a raw key) on every workload.
    case sqlcipher
}

/// Everything the command line can say.
struct BenchOptions {
    /// Workload names to run, in order; empty means all.
    var workloadNames: [String] = []
    /// Documents in the generated corpus.
    var documentCount = 100_000
    /// Seed for the corpus generator.
    var seed: UInt64 = BenchOptions.defaultSeed
    /// Timed runs per side after one warm-up; the median is reported.
    var runs = 5
    var format = OutputFormat.text
    var baselineJSON = BaselineJSON.stockpot
    /// `PRAGMA synchronous` for the SQLite baseline: FULL (SmartStore's), NORMAL or OFF.
    var sqliteSynchronous = "FULL"
    var listWorkloads = false
    var showHelp = false
    /// Seconds the timed operations of store.mixed may take in all (both sides).
    var mixedSeconds = 60.0
    /// The key-value engine the storage peer workloads run against.
    var peer = PeerKind.rocksdb
    /// Load the query fixture (into `--keep-fixture DIR`) and exit.
    var prepareFixture = false
    /// Run the SQLite baseline self-check instead of workloads.
    var selfCheck = false
    /// Print the corpus as JSON Lines instead of running workloads.
    var emitCorpus = false
    /// Input bytes of the store `storage.open` builds; `nil` means the corpus once. Larger
    /// sizes repeat the corpus under new keys.
    var openBytes: Int?
    /// Where the query fixture (both loaded stores of the query.* and sql.* workloads) is
    /// kept across runs; `nil` means a scratch directory removed at exit.
    var keptFixture: String?
    /// `StoreOptions.documentCacheBytes` of the stores the read workloads open; `nil` means
    /// the default.
    var documentCacheBytes: Int?
    /// The baseline's side runs first in every pair of turns (the report flips this between
    /// processes).
    var baselineFirst = false
    /// How the query fixture's SQLite connection is set up.
    var sqliteSetup = SQLiteSetup.smartStore
    /// Seconds both sides' timed calls may take together in a query, sql or store.get
    /// workload; `nil` means ``BlockInterleaving/timedSecondsBudget``.
    var timedSeconds: Double?

    static let defaultSeed: UInt64 = 20_261_130

    static let usage = """
        USAGE: stockpot-bench [WORKLOAD ...] [--docs N] [--seed S] [--runs R] [--format text|json]
                             [--baseline-json stockpot|foundation]
                             [--sqlite-sync full|normal|off] [--open-bytes N]
                             [--keep-fixture DIR] [--document-cache-bytes N]
                             [--baseline-first] [--sqlite smartstore|tuned|sqlcipher] [--timed-seconds S]
                             [--peer rocksdb|leveldb|lmdb] [--mixed-seconds S]
               stockpot-bench --list | --selfcheck [--docs N] | --emit-corpus [--docs N] | --help
               stockpot-bench report [--processes P] [--docs N] [--out DIR] [WORKLOAD ...]
               stockpot-bench tables RESULTS.jsonl [--page docs/benchmarks.md]
               stockpot-bench demo [--entries N] [--store PATH] [--seed S]   (see demo --help)

        Runs Stockpot benchmarks against their baselines on a generated corpus of ~1 KB
        Salesforce Account documents. One line per workload on standard output; progress on
        standard error.

        ARGUMENTS:
          WORKLOAD            Workload names (see --list); default: all.

        OPTIONS:
          --docs N            Documents in the corpus (default: 100000).
          --seed S            Corpus seed (default: \(defaultSeed)).
          --runs R            Timed runs per side after a warm-up, median reported
                              (default: 5; fewer when a side would pass 15 s).
          --format F          text (aligned columns) or json (one object per line).
          --baseline-json J   JSON library of the SQLite baseline: stockpot (default) or
                              foundation.
          --sqlite-sync S     PRAGMA synchronous of the SQLite baseline: full (default,
                              as SmartStore), normal or off.
          --open-bytes N      Input bytes of the store storage.open builds (default: the
                              corpus once; more repeats the corpus under new keys).
          --keep-fixture DIR  Keep the query and sql workloads' loaded stores in DIR and
                              reuse them in later runs of the same --docs and --seed
                              (loading 1,000,000 entries takes minutes). The stores are
                              checked as after a load; delete DIR to load afresh.
          --document-cache-bytes N
                              Document cache of the stores that store.get and the
                              query and sql workloads read (default: the store's, 2 MiB;
                              0 turns it off).
          --baseline-first    The baseline's side runs first in each pair of turns.
          --sqlite S          The query and sql workloads' SQLite connection: smartstore
                              (default: 2 MB page cache, no mmap) or tuned (page cache
                              and mmap at least the memory Stockpot holds); sqlcipher:
                              every workload's SQLite is SQLCipher keyed as SmartStore
                              keys it (kdf_iter 4000) and Stockpot's store is encrypted.
          --timed-seconds S   Seconds both sides' timed calls may take together in a
                              query, sql or store.get workload (default: 30).
          --peer P            The engine the storage peer workloads (storage.fill-seq ...)
                              run against: rocksdb (default), leveldb or lmdb.
          --mixed-seconds S   How long store.mixed's timed operations may take in all
                              (default: 60).
          --list              List workloads and exit.
          --prepare-fixture   Load the query fixture (with --keep-fixture DIR) and exit.
          --selfcheck         Load N documents into the SQLite (SmartStore-shaped) baseline,
                              query them back and report counts.
          --emit-corpus       Print the generated documents, one per line, and exit.
          -h, --help          Show this help.
        """

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions {
        var options = BenchOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help": options.showHelp = true
            case "--list": options.listWorkloads = true
            case "--selfcheck": options.selfCheck = true
            case "--prepare-fixture": options.prepareFixture = true
            case "--emit-corpus": options.emitCorpus = true
            case "--docs":
                options.documentCount = try positiveInteger(after: argument, from: &remaining)
            case "--open-bytes":
                options.openBytes = try positiveInteger(after: argument, from: &remaining)
            case "--keep-fixture":
                options.keptFixture = try value(after: argument, from: &remaining)
            case "--document-cache-bytes":
                let text = try value(after: argument, from: &remaining)
                guard let bytes = Int(text), bytes >= 0 else {
                    throw UsageError(message: "--document-cache-bytes needs a byte count of 0 or more, got '\(text)'")
                }
                options.documentCacheBytes = bytes
            case "--baseline-first": options.baselineFirst = true
            case "--mixed-seconds":
                let text = try value(after: argument, from: &remaining)
                guard let seconds = Double(text), seconds > 0 else {
                    throw UsageError(message: "--mixed-seconds needs a positive number, got '\(text)'")
                }
                options.mixedSeconds = seconds
            case "--peer":
                let text = try value(after: argument, from: &remaining)
                guard let peer = PeerKind(rawValue: text) else {
                    throw UsageError(message: "--peer must be rocksdb, leveldb or lmdb, got '\(text)'")
                }
                options.peer = peer
            case "--sqlite":
                let text = try value(after: argument, from: &remaining)
                guard let setup = SQLiteSetup(rawValue: text) else {
                    throw UsageError(message: "--sqlite must be smartstore, tuned or sqlcipher, got '\(text)'")
                }
                options.sqliteSetup = setup
            case "--timed-seconds":
                let text = try value(after: argument, from: &remaining)
                guard let seconds = Double(text), seconds > 0 else {
                    throw UsageError(message: "--timed-seconds needs a positive number, got '\(text)'")
                }
                options.timedSeconds = seconds
            case "--runs":
                options.runs = try positiveInteger(after: argument, from: &remaining)
            case "--seed":
                let text = try value(after: argument, from: &remaining)
                guard let seed = UInt64(text) else {
                    throw UsageError(message: "--seed needs an unsigned integer, got '\(text)'")
                }
                options.seed = seed
            case "--format":
                let text = try value(after: argument, from: &remaining)
                guard let format = OutputFormat(rawValue: text) else {
                    throw UsageError(message: "--format must be text or json, got '\(text)'")
                }
                options.format = format
            case "--baseline-json":
                let text = try value(after: argument, from: &remaining)
                guard let choice = BaselineJSON(rawValue: text) else {
                    throw UsageError(message: "--baseline-json must be stockpot or foundation, got '\(text)'")
                }
                options.baselineJSON = choice
            case "--sqlite-sync":
                let text = try value(after: argument, from: &remaining).uppercased()
                guard ["FULL", "NORMAL", "OFF"].contains(text) else {
                    throw UsageError(message: "--sqlite-sync must be full, normal or off, got '\(text.lowercased())'")
                }
                options.sqliteSynchronous = text
            default:
                if argument.hasPrefix("-") {
                    throw UsageError(message: "unknown option '\(argument)'")
                }
                options.workloadNames.append(argument)
            }
        }
        return options
    }

    private static func value(
        after option: String, from remaining: inout ArraySlice<String>
    ) throws(UsageError) -> String {
        guard let text = remaining.popFirst() else {
            throw UsageError(message: "\(option) needs a value")
        }
        return text
    }

    private static func positiveInteger(
        after option: String, from remaining: inout ArraySlice<String>
    ) throws(UsageError) -> Int {
        let text = try value(after: option, from: &remaining)
        guard let number = Int(text), number > 0 else {
            throw UsageError(message: "\(option) needs a positive integer, got '\(text)'")
        }
        return number
    }
}
