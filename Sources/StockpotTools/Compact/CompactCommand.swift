// `stockpot compact STORE`: compacts the log now and reports the space before and after.

import Stockpot

/// The `compact` subcommand.
public struct CompactCommand: ParsableCommand {
    /// The store directory.
    public var directory: String
    /// The key file (`--key-file`, or STOCKPOT_KEY_FILE); nil for a plain store.
    public var keyFile: String?

    /// How `compact` documents itself.
    public static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Compact a store's log now and report the space before and after.",
        discussion: """
            Opens STORE, copies the live records of every sealed segment with dead bytes into new segments and removes the old ones (docs/durability.md, "Compaction"), then prints the segment bytes, live and dead, and the segment count before and after. The active segment is not compacted; values overwritten or deleted there are reclaimed once it is sealed.
            """,
        usage: "compact STORE",
        arguments: [.init("STORE", "The store directory; it must exist.")],
        options: [KeyFile.optionHelp],
        examples: [.init("compact ./store", "Reclaims the space of deleted and overwritten entries.")])

    /// Reads the arguments.
    public init(parsing arguments: inout ArgumentScanner) throws(UsageError) {
        keyFile = try KeyFile.takePath(&arguments)
        directory = try arguments.takePositional("STORE")
    }

    /// Compacts and reports.
    public func run() -> ExitCode {
        do throws(ToolFailure) {
            var options = StoreOptions()
            options.encryption = try KeyFile.encryption(keyFile)
            let store = try StoreAccess.openExisting(directory, options: options)
            let outcome: Result<(StoreStats, StoreStats), ToolFailure>
            do {
                outcome = .success((try store.stats(), try store.compact()))
            } catch {
                outcome = .failure(ToolFailure(error, doing: "cannot compact \(directory)"))
            }
            try StoreAccess.close(store)
            let (before, after) = try outcome.get()
            StandardStream.output.write(
                "before: " + Self.describe(before) + "\n" + "after:  " + Self.describe(after) + "\n"
                    + "reclaimed \(ByteCount.describe(max(0, before.dataBytes - after.dataBytes)))\n")
            return .success
        } catch {
            return error.report()
        }
    }

    private static func describe(_ stats: StoreStats) -> String {
        "\(stats.dataBytes) segment bytes (\(stats.liveBytes) live, \(stats.dataBytes - stats.liveBytes) dead) in \(stats.segments) segments, \(stats.blobBytes) blob bytes"
    }
}
