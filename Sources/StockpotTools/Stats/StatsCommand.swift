// `stockpot stats STORE [--format text|json]`: soups, entries, space live and dead, blobs,
// segments, the snapshot's age and the index memory of every soup by kind.

import Stockpot
import StockpotJSON

/// The `stats` subcommand.
public struct StatsCommand: ParsableCommand {
    /// The store directory.
    public var directory: String
    /// Print JSON instead of text.
    public var json: Bool
    /// The key file (`--key-file`, or STOCKPOT_KEY_FILE); nil for a plain store.
    public var keyFile: String?

    /// How `stats` documents itself.
    public static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show a store's soups, entries, space, snapshot and index memory.",
        discussion: """
            Opens STORE and prints: soups and entries; segment files and their bytes, live (needed by current values) and dead (reclaimable by compaction); blob bytes; the key directory's memory; the newest snapshot and its age, and the log written since; then per soup its entries and the memory of each index by kind (the entry-id index, one per spec, the full-text terms).
            """,
        usage: "stats STORE [--format text|json]",
        arguments: [.init("STORE", "The store directory; it must exist.")],
        options: [.init("--format text|json", "Text for people (the default) or one JSON object."), KeyFile.optionHelp],
        examples: [
            .init("stats ./store", "Prints the statistics as text."),
            .init("stats ./store --format json", "Prints them as one JSON object."),
        ])

    /// Reads the arguments.
    public init(parsing arguments: inout ArgumentScanner) throws(UsageError) {
        let format = try arguments.takeOption("--format") ?? "text"
        guard format == "text" || format == "json" else {
            throw UsageError("The option '--format' must be text or json, not '\(format)'.")
        }
        json = format == "json"
        keyFile = try KeyFile.takePath(&arguments)
        directory = try arguments.takePositional("STORE")
    }

    /// Prints the statistics.
    public func run() -> ExitCode {
        do throws(ToolFailure) {
            let store = try StoreAccess.openForReading(directory, encryption: KeyFile.encryption(keyFile))
            let report: Result<StoreReport, ToolFailure>
            do throws(ToolFailure) {
                report = .success(try StoreReport(store: store))
            } catch {
                report = .failure(error)
            }
            try StoreAccess.close(store)
            let result = try report.get()
            StandardStream.output.write(json ? JSONWriter.write(result.json) + [0x0A] : Array(result.text.utf8))
            return .success
        } catch {
            return error.report()
        }
    }
}
