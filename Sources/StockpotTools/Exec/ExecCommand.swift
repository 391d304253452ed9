// `stockpot exec STORE`: the command protocol over standard input and output
// (docs/protocol.md). Opens the store, answers one line per request, closes at EOF.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Stockpot
import StockpotJSON

/// The `exec` subcommand: serves the JSON-lines command protocol on a store.
///
/// Exits 0 at the end of input whatever the requests returned; exits 1 with a message on
/// standard error only when the store cannot be opened or closed.
public struct ExecCommand: ParsableCommand {
    /// The store directory.
    public var directory: String
    /// How the store is opened.
    public var storeOptions: StoreOptions
    /// The key file (`--key-file`, or STOCKPOT_KEY_FILE); nil for a plain store.
    public var keyFile: String?
    /// The PostgreSQL server of the sync operations, when given.
    public var syncServer: String?
    /// Limits on request lines.
    public var jsonLimits: JSONLimits
    /// Budgets of requests besides the line limits.
    var budgets = ExecBudgets()

    /// How `exec` documents itself.
    public static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Serve the Stockpot command protocol: JSON requests on stdin, responses on stdout.",
        discussion: """
            Opens the store in STORE (creating it when it does not exist) and reads standard input one line at a time. Each non-blank line is a JSON request such as {"id": 1, "op": "soupExists", "soupName": "accounts"}; each gets exactly one compact JSON response line, flushed at once. At end of input the store is closed and the exit status is 0. The status is 1, with a message on standard error, only when the store cannot be opened or closed (for instance when another process holds it). Operations: registerSoup, soupExists, getAllSoupNames, getSoupIndexSpecs, alterSoup, reIndexSoup, clearSoup, removeSoup; upsertSoupEntries, retrieveSoupEntries, removeFromSoup; querySoup, runSmartQuery, countQuery, moveCursorToPageIndex, closeCursor; the change feed: getLastSeq, getChanges (since, soupNames, limit), purgeTombstones (through); stats, compact; hello (the protocol, library and format versions), explainQuery (how a query spec or a Smart SQL statement runs); with --sync-server: syncDown, syncUp, reSync, cleanResyncGhosts, getSyncStatus (docs/sync.md). The protocol is documented in docs/protocol.md of the Stockpot repository; what each query returns in docs/semantics.md; the change feed in docs/changes.md.
            """,
        usage: "exec STORE [options]",
        arguments: [.init("STORE", "The store directory; created when it does not exist.")],
        options: [
            .init(
                "--durability full|interval|none",
                "When writes reach the disk: before each request returns (full, the default), every --sync-interval-ms milliseconds (interval), or when the operating system decides (none)."
            ),
            .init("--sync-interval-ms N", "The sync period of --durability interval (default 100)."),
            .init("--max-request-bytes N", "The longest request line, in bytes (default 67108864)."),
            .init("--max-depth N", "The deepest nesting of a request; the request object is depth 1 (default 512, at most 1024)."),
            .init("--max-request-entries N", "The most entries in one upsertSoupEntries request (default 100000)."),
            .init(
                "--max-statement-memory-bytes N",
                "The most bytes of rows one Smart SQL statement holds for sorting, grouping and DISTINCT (default 268435456)."),
            .init("--max-document-bytes N", "The largest document, as compact JSON (default 16777216)."),
            .init("--max-soup-name-bytes N", "The longest soup name, in UTF-8 bytes (default 255)."),
            .init("--max-index-path-bytes N", "The longest index path, in UTF-8 bytes (default 1024)."),
            .init(
                "--sync-server URI",
                "The PostgreSQL server of the sync operations (syncDown, syncUp, reSync, cleanResyncGhosts; docs/sync.md): a libpq connection string or URI."
            ),
            .init("--blob-threshold-bytes N", "Documents larger than this go to blob files (default 1048576)."),
            KeyFile.optionHelp,
        ],
        examples: [
            .init(
                "exec /tmp/accounts.pot < requests.jsonl",
                "Runs a file of requests against the store and prints one response per request."),
            .init(
                "exec /tmp/accounts.pot <<< '{\"id\": 1, \"op\": \"getChanges\", \"since\": 0, \"limit\": 100}'",
                "Prints the first 100 changes of the store's change feed and the sequence to ask from next."),
            .init(
                "exec /tmp/accounts.pot --durability none --max-request-bytes 4096",
                "Serves a store without syncing writes, refusing request lines over 4 KiB."),
        ])

    /// Reads `STORE` and the options.
    public init(parsing arguments: inout ArgumentScanner) throws(UsageError) {
        var options = StoreOptions()
        let durability = try arguments.takeOption("--durability") ?? "full"
        let interval = try arguments.takeInteger("--sync-interval-ms", in: 1...86_400_000)
        switch durability {
        case "full": options.durability = .full
        case "none": options.durability = .none
        case "interval": options.durability = .interval(milliseconds: interval ?? 100)
        default:
            throw UsageError("The option '--durability' must be full, interval or none, not '\(durability)'.")
        }
        if interval != nil, durability != "interval" {
            throw UsageError("The option '--sync-interval-ms' needs '--durability interval'.")
        }
        var limits = JSONLimits()
        let byteRange = 1...Int(Int32.max)
        limits.maxInputBytes = try arguments.takeInteger("--max-request-bytes", in: byteRange) ?? limits.maxInputBytes
        // A string may be as long as the line: documents over their limit must reach the store
        // (limit_exceeded), not fail as unreadable requests.
        limits.maxStringBytes = limits.maxInputBytes
        limits.maxDepth = try arguments.takeInteger("--max-depth", in: 1...JSONLimits.maxSupportedDepth) ?? limits.maxDepth
        budgets.maxRequestEntries =
            try arguments.takeInteger("--max-request-entries", in: 1...Int(Int32.max)) ?? budgets.maxRequestEntries
        budgets.statementMemoryBytes =
            try arguments.takeInteger("--max-statement-memory-bytes", in: 1...Int.max) ?? budgets.statementMemoryBytes
        options.limits.documentBytes =
            try arguments.takeInteger("--max-document-bytes", in: byteRange) ?? options.limits.documentBytes
        options.limits.soupNameBytes =
            try arguments.takeInteger("--max-soup-name-bytes", in: byteRange) ?? options.limits.soupNameBytes
        options.limits.indexPathBytes =
            try arguments.takeInteger("--max-index-path-bytes", in: byteRange) ?? options.limits.indexPathBytes
        options.blobThreshold =
            try arguments.takeInteger("--blob-threshold-bytes", in: byteRange) ?? options.blobThreshold
        keyFile = try KeyFile.takePath(&arguments)
        syncServer = try arguments.takeOption("--sync-server")
        directory = try arguments.takePositional("STORE")
        storeOptions = options
        jsonLimits = limits
    }

    /// Opens the store, serves standard input until its end, and closes the store.
    public func run() -> ExitCode {
        // A reader that goes away must not kill the process before the store is closed.
        signal(SIGPIPE, SIG_IGN)
        LargeBuffers.returnToTheSystemWhenFreed()
        let store: Store
        var options = storeOptions
        do throws(ToolFailure) {
            options.encryption = try KeyFile.encryption(keyFile)
        } catch {
            return error.report()
        }
        do {
            store = try Store.open(directory: directory, options: options)
            StoreAccess.reportOpenWarnings(store)
        } catch {
            let hint = StoreAccess.keyHint(error).map { "; \($0)" } ?? ""
            StandardStream.error.write("Error: cannot open the store at \(directory): \(Self.describe(error))\(hint)\n")
            return .failure
        }
        serve(ExecSession(store: store, jsonLimits: jsonLimits, budgets: budgets, syncServer: syncServer))
        do {
            try store.close()
        } catch {
            StandardStream.error.write("Error: cannot close the store at \(directory): \(Self.describe(error))\n")
            return .failure
        }
        return .success
    }

    /// The message and, unless the message already names it, the protocol code.
    private static func describe(_ error: StockpotError) -> String {
        error.message.contains(error.code.rawValue) ? error.message : "\(error.message) (\(error.code))"
    }

    /// Answers every request line of standard input, until its end or until standard output
    /// stops taking responses.
    private func serve(_ initial: ExecSession) {
        var session = initial
        var reader = LineReader(fileDescriptor: 0, maxLineBytes: jsonLimits.maxInputBytes)
        while true {
            let response: [UInt8]
            do {
                switch try reader.next() {
                case nil:
                    return
                case .tooLong(let byteCount):
                    response = session.respondToOverlongLine(byteCount: byteCount)
                case .line(let line):
                    if ExecSession.isBlank(line) { continue }
                    response = session.respond(to: line)
                }
            } catch {
                StandardStream.error.write("Warning: \(error); closing the store.\n")
                return
            }
            guard StandardStream.output.write(response) else {
                StandardStream.error.write("Warning: standard output is closed; closing the store.\n")
                return
            }
        }
    }
}
