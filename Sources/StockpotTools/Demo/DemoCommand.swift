// `stockpot demo [DIR]`: builds a store of generated Account documents with every index kind,
// runs a few timed lookups and says how to open the store. What `make demo` runs.

import Foundation
import Stockpot

/// The `demo` subcommand.
public struct DemoCommand: ParsableCommand {
    /// The soup the demo fills.
    static let soup = "accounts"
    /// One spec of each of the five index kinds.
    static let specs = [
        IndexSpec(path: "Industry", type: .string), IndexSpec(path: "NumberOfEmployees", type: .integer),
        IndexSpec(path: "AnnualRevenue", type: .floating), IndexSpec(path: "Name", type: .fullText),
        IndexSpec(path: "attributes.type", type: .json1),
    ]
    /// The seed of the benchmark's corpus, so the demo holds the same documents.
    package static let defaultSeed: UInt64 = 20_261_130

    /// The store directory.
    public var directory: String
    /// Entries to ingest.
    public var entries: Int
    /// The corpus seed.
    public var seed: UInt64
    /// Replace DIR whatever it holds.
    public var force = false

    /// How `demo` documents itself.
    public static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Build a demo store of generated Accounts, time a few lookups, and show how to open it.",
        discussion: """
            Creates a store in DIR (replacing an earlier demo store there; a directory holding anything else, another store included, is refused unless --force is given) with a soup 'accounts' indexed on all five index kinds, ingests generated Salesforce-like Account documents 1,000 per durable commit, then times lookups by id, pages ordered by an index, positions, counts, and exact, like and full-text queries. Progress goes to standard error; the lookups and their timings to standard output. 'make demo' runs this.
            """,
        usage: "demo [DIR] [--entries N] [--seed S] [--force]",
        arguments: [.init("DIR", "The store directory (default ./demo-store).")],
        options: [
            .init("--entries N", "Account entries to ingest (default 100000)."),
            .init("--seed S", "The corpus seed (default \(defaultSeed))."),
            .init("--force", "Replace DIR whatever it holds (by default only an empty directory or a demo store is)."),
        ],
        examples: [
            .init("demo", "Builds ./demo-store with 100,000 Accounts."),
            .init("demo /tmp/small --entries 5000", "A quick demo store of 5,000 Accounts."),
        ])

    /// Reads the arguments.
    public init(parsing arguments: inout ArgumentScanner) throws(UsageError) {
        entries = try arguments.takeInteger("--entries", in: 1...100_000_000) ?? 100_000
        if let text = try arguments.takeOption("--seed") {
            guard let value = UInt64(text) else { throw UsageError("The option '--seed' needs an unsigned integer, not '\(text)'.") }
            seed = value
        } else {
            seed = Self.defaultSeed
        }
        force = try arguments.takeFlag("--force")
        directory = arguments.takeOptionalPositional() ?? "./demo-store"
    }

    /// Builds the store, runs the lookups, closes it and prints how to open it.
    public func run() -> ExitCode {
        do {
            try build()
            return .success
        } catch let failure as ToolFailure {
            return failure.report()
        } catch let refusal as DemoStoreDirectory.Refusal {
            return ToolFailure(refusal.description).report()
        } catch let error as StockpotError {
            return ToolFailure(error, doing: "the demo failed").report()
        } catch {
            return ToolFailure("the demo failed: \(error)").report()
        }
    }

    private func message(_ text: String) {
        StandardStream.error.write("stockpot demo: " + text + "\n")
    }

    private func build() throws {
        try DemoStoreDirectory.prepare(directory, force: force)
        message("generating \(entries) Account documents (seed \(seed))")
        var generator = AccountGenerator(seed: seed)
        let documents = (0..<entries).map { _ in generator.next() }
        let totalBytes = documents.reduce(0) { $0 + $1.count }
        message("generated " + ProgressBar.decimal(Double(totalBytes) / 1e6, places: 1) + " MB; creating the store at " + directory)

        let store = try StoreAccess.open(directory)
        try store.registerSoup(Self.soup, indexSpecs: Self.specs)
        message("soup \"\(Self.soup)\": " + Self.specs.map { "\($0.path) (\($0.type.rawValue))" }.joined(separator: ", "))

        let progress = ProgressBar(label: "ingest", totalEntries: entries)
        var done = 0
        var doneBytes = 0
        let batchSize = 1000
        while done < documents.count {
            let batch = Array(documents[done..<min(done + batchSize, documents.count)])
            try store.upsert(json: batch, into: Self.soup)
            done += batch.count
            doneBytes += batch.reduce(0) { $0 + $1.count }
            progress.update(entries: done, bytes: doneBytes)
        }
        progress.finish()
        let seconds = progress.elapsedSeconds
        print(
            "Ingested \(done) entries (" + ProgressBar.decimal(Double(doneBytes) / 1e6, places: 1) + " MB) in "
                + ProgressBar.decimal(seconds, places: 2) + " s: " + ProgressBar.decimal(Double(done) / seconds, places: 0)
                + " entries/s, durable commits of \(batchSize).")
        try DemoLookups(store: store, seed: seed).run()
        try store.close()
        let diskBytes = DemoStoreDirectory.fileBytes(directory)
        print("")
        print(
            "The store is in \(directory) (" + ProgressBar.decimal(Double(diskBytes) / 1e6, places: 1)
                + " MB on disk). Look at it with the stockpot CLI:")
        print("")
        print("    stockpot stats \(directory)")
        print("    stockpot dump \(directory) | head -3")
        print("    stockpot exec \(directory)")
        print("")
        print("and type one request per line to exec, for example:")
        print("")
        print(#"    {"op":"querySoup","soupName":"accounts","querySpec":{"queryType":"all","orderPath":"Name","pageSize":3}}"#)
    }
}
