// `stockpot-bench demo`: builds a store of generated Account documents with every index kind,
// runs a few timed lookups and says how to open the store with the CLI. What `make demo` runs.

import Foundation
import Stockpot

/// The `demo` subcommand: its options, parsed by hand, and `run()`.
struct DemoCommand {
    static let abstract = "Build a demo store of generated Accounts, time a few lookups, and show how to open it."

    static let usage = """
        USAGE: stockpot-bench demo [--entries N] [--store PATH] [--seed S]

        \(abstract)
        Progress goes to standard error; the lookups and their timings to standard output.

        OPTIONS:
          --entries N         Account entries to ingest (default: 100000).
          --store PATH        Store directory, replaced if it holds a store (default: ./demo-store).
          --seed S            Corpus seed (default: \(BenchOptions.defaultSeed)).
          -h, --help          Show this help.
        """

    /// Entries to ingest.
    var entries = 100_000
    /// The store's directory.
    var storePath = "./demo-store"
    /// The corpus seed.
    var seed = BenchOptions.defaultSeed
    var showHelp = false

    /// Parses the arguments after `demo`.
    static func parse(_ arguments: [String]) throws(UsageError) -> DemoCommand {
        var command = DemoCommand()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help": command.showHelp = true
            case "--entries":
                guard let text = remaining.popFirst(), let number = Int(text), number > 0 else {
                    throw UsageError(message: "--entries needs a positive integer")
                }
                command.entries = number
            case "--store":
                guard let text = remaining.popFirst(), !text.isEmpty else {
                    throw UsageError(message: "--store needs a path")
                }
                command.storePath = text
            case "--seed":
                guard let text = remaining.popFirst(), let seed = UInt64(text) else {
                    throw UsageError(message: "--seed needs an unsigned integer")
                }
                command.seed = seed
            default:
                throw UsageError(message: "unexpected argument '\(argument)'")
            }
        }
        return command
    }

    /// Builds the store, runs the lookups, closes it and prints how to open it.
    func run() throws {
        try DemoStoreDirectory.prepare(storePath)
        ProgressBar.message("generating \(entries) Account documents (seed \(seed))")
        var generator = AccountGenerator(seed: seed)
        let documents = (0..<entries).map { _ in generator.next() }
        let totalBytes = documents.reduce(0) { $0 + $1.count }
        ProgressBar.message(String(format: "generated %.1f MB; creating the store at ", Double(totalBytes) / 1e6) + storePath)

        let store = try Store.open(directory: storePath)
        let specs = StoreSoups.stockpotSpecs(StoreSoups.fiveKinds)
        try store.registerSoup(StoreSoups.name, indexSpecs: specs)
        ProgressBar.message(
            "soup \"\(StoreSoups.name)\": " + specs.map { "\($0.path) (\($0.type.rawValue))" }.joined(separator: ", "))

        let progress = ProgressBar(label: "ingest", total: entries)
        let clock = ContinuousClock()
        let started = clock.now
        var done = 0
        var doneBytes = 0
        while done < documents.count {
            let batch = Array(documents[done..<min(done + StoreLoad.batchSize, documents.count)])
            try store.upsert(json: batch, into: StoreSoups.name)
            done += batch.count
            doneBytes += batch.reduce(0) { $0 + $1.count }
            progress.update(done: done, bytes: doneBytes)
        }
        let seconds = Stopwatch.seconds(clock.now - started)
        progress.finish(done: done, bytes: doneBytes, seconds: seconds)

        print(String(format: "Ingested %d entries (%.1f MB) in %.2f s: %.0f entries/s, durable commits of %d.",
                     done, Double(doneBytes) / 1e6, seconds, Double(done) / seconds, StoreLoad.batchSize))
        try DemoLookups(store: store, seed: seed).run()
        try store.close()
        let diskBytes = DemoStoreDirectory.fileBytes(storePath)
        print("")
        print("The store is in \(storePath) " + String(format: "(%.1f MB on disk).", Double(diskBytes) / 1e6)
            + " Open it with the stockpot CLI:")
        print("")
        print("    swift run stockpot exec \(storePath)")
        print("")
        print("and type one request per line, for example:")
        print("")
        print(#"    {"op":"querySoup","soupName":"accounts","querySpec":{"queryType":"all","orderPath":"Name","pageSize":3}}"#)
    }
}
