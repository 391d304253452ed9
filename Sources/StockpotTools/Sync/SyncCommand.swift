// `stockpot sync`: sync a store's soups with a PostgreSQL server (docs/sync.md, docs/cli.md),
// and its two other forms, `sync status STORE` and `sync init-server` (SyncCommand+Status.swift,
// SyncCommand+InitServer.swift).

import Stockpot
import StockpotJSON
import StockpotSync

/// The `sync` subcommand.
public struct SyncCommand: ParsableCommand {
    /// What the command line asks for.
    enum Mode {
        case sync(store: String)
        case status(store: String)
        case initServer
    }

    var mode: Mode
    var server: String?
    var soups: [String]
    var down: Bool
    var up: Bool
    var resync: Bool
    var cleanGhosts: Bool
    var options = SyncOptions()
    var deviceRole: String?
    var json: Bool
    /// The key file of an encrypted store (`--key-file`, or STOCKPOT_KEY_FILE).
    var keyFile: String?

    /// How `sync` documents itself.
    public static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync a store's soups with a PostgreSQL server; show sync status; prepare a server.",
        discussion: """
            `sync STORE --server URI` sends each soup's local changes to the server and then applies the server's changes (`--up` or `--down` for one direction only). A soup syncs when it has a global key: an index spec with "default": "newid". Without --soup every such soup syncs. The server must be prepared once with `sync init-server`. Progress goes to standard error, one summary line per soup to standard output (--json: one JSON object per soup). Conflicts left unresolved under `--conflict fail` are listed and make the exit status 1.

            `sync status STORE` prints, without a server, each soup's watermark, last syncs and the keys of entries with local changes not yet on the server.

            `sync init-server --server URI --soup S ...` creates the server tables of the soups (safe to run again); --device-role ROLE grants ROLE what a device needs and nothing more. URI is a libpq connection string or URI (TLS through sslmode); passwords never appear in output or errors (prefer PGPASSWORD or ~/.pgpass). docs/sync.md has the model, the tables and the errors.
            """,
        usage:
            "sync STORE --server URI [--soup S]... [--down] [--up] [--merge-mode M] [--conflict P] [options]\n       sync status STORE [--soup S]... [--json]\n       sync init-server --server URI --soup S... [--device-role ROLE]",
        arguments: [.init("STORE", "The store directory; it must exist.")],
        options: [
            .init("--server URI", "The PostgreSQL server: a libpq connection string or URI."),
            .init("--soup S", "A soup to sync (repeatable); default: every soup with a newid key."),
            .init("--down", "Only sync down (server to store)."),
            .init("--up", "Only sync up (store to server)."),
            .init("--merge-mode overwrite|leaveIfChanged", "Sync down: replace entries with local changes (default) or leave them."),
            .init("--conflict serverWins|clientWins|fail", "Sync up: how conflicts are resolved (default fail)."),
            .init("--filter JSON", "Sync down only server documents containing this JSON object."),
            .init("--batch N", "Entries per server round trip (default 1000)."),
            .init("--resync", "Sync down from scratch (reSync)."),
            .init("--clean-ghosts", "After syncing down, delete local entries the server no longer has."),
            .init("--device-role ROLE", "init-server: grant ROLE what sync needs."),
            .init("--json", "One JSON object per soup on standard output instead of a summary line."),
            KeyFile.optionHelp,
        ],
        examples: [
            .init("sync init-server --server postgresql://admin@db/app --soup Account --device-role device", "Prepares the server for soup Account."),
            .init("sync ./store --server 'host=db dbname=app user=device sslmode=require'", "Syncs every soup up, then down."),
            .init(
                "sync ./store --server postgresql://device@db/app --soup Account --down --merge-mode leaveIfChanged",
                "Syncs one soup down, keeping local changes."),
            .init("sync status ./store", "Lists unsynced entries."),
        ])

    /// Reads the arguments.
    public init(parsing arguments: inout ArgumentScanner) throws(UsageError) {
        server = try arguments.takeOption("--server")
        soups = try arguments.takeRepeatedOption("--soup")
        down = try arguments.takeFlag("--down")
        up = try arguments.takeFlag("--up")
        resync = try arguments.takeFlag("--resync")
        cleanGhosts = try arguments.takeFlag("--clean-ghosts")
        json = try arguments.takeFlag("--json")
        deviceRole = try arguments.takeOption("--device-role")
        keyFile = try KeyFile.takePath(&arguments)
        if let mode = try arguments.takeOption("--merge-mode") {
            guard let mergeMode = MergeMode(rawValue: mode) else {
                throw UsageError("The option '--merge-mode' needs overwrite or leaveIfChanged, not '\(mode)'.")
            }
            options.mergeMode = mergeMode
        }
        if let name = try arguments.takeOption("--conflict") {
            guard let policy = ConflictPolicy(name: name) else {
                throw UsageError("The option '--conflict' needs serverWins, clientWins or fail, not '\(name)'.")
            }
            options.conflictPolicy = policy
        }
        if let filter = try arguments.takeOption("--filter") {
            guard let value = try? JSONReader.parse(filter), value.objectValue != nil else {
                throw UsageError("The option '--filter' needs a JSON object, not '\(filter)'.")
            }
            options.filter = value
        }
        options.batchSize = try arguments.takeInteger("--batch", in: 1...1_000_000) ?? 1_000
        let first = try arguments.takePositional("STORE")
        switch first {
        case "status": mode = .status(store: try arguments.takePositional("STORE"))
        case "init-server": mode = .initServer
        default: mode = .sync(store: first)
        }
        switch mode {
        case .sync:
            guard server != nil else { throw UsageError("Missing the option '--server URI'.") }
            if !up && !down { (up, down) = (true, true) }
        case .initServer:
            guard server != nil else { throw UsageError("Missing the option '--server URI'.") }
            guard !soups.isEmpty else { throw UsageError("init-server needs at least one '--soup S'.") }
        case .status:
            break
        }
    }

    /// Runs the form asked for.
    public func run() -> ExitCode {
        do throws(ToolFailure) {
            switch mode {
            case .sync(let directory): return try runSync(directory)
            case .status(let directory): return try runStatus(directory)
            case .initServer: return try runInitServer()
            }
        } catch {
            return error.report()
        }
    }

    /// Syncs each soup: up, then down (then ghosts); stops at the first error.
    private func runSync(_ directory: String) throws(ToolFailure) -> ExitCode {
        var storeOptions = StoreOptions()
        storeOptions.encryption = try KeyFile.encryption(keyFile)
        let store = try StoreAccess.openExisting(directory, options: storeOptions)
        let sync = StoreSync(store: store, server: server ?? "")
        let names = soups.isEmpty ? StoreSync.syncableSoups(of: store) : soups
        var failure: ToolFailure?
        var unresolved = 0
        for soup in names {
            var steps: [(name: String, summary: SyncSummary)] = []
            do throws(SyncError) {
                if up { steps.append(("up", try perform(sync, .syncUp, soup))) }
                if down { steps.append((resync ? "resync" : "down", try perform(sync, resync ? .reSync : .syncDown, soup))) }
                if cleanGhosts { steps.append(("ghosts", try perform(sync, .cleanResyncGhosts, soup))) }
            } catch {
                failure = Self.failure(error)
            }
            SyncReport.print(soup: soup, steps: steps, json: json)
            unresolved += steps.reduce(0) { $0 + $1.summary.unresolved }
            if failure != nil { break }
        }
        try StoreAccess.close(store)
        if let failure { throw failure }
        if unresolved > 0 {
            throw ToolFailure(
                "conflict: \(unresolved) conflicting change\(unresolved == 1 ? "" : "s") left unsynced (policy fail); see `stockpot sync status`.")
        }
        return .success
    }

    private func perform(_ sync: StoreSync, _ operation: StoreSync.Operation, _ soup: String) throws(SyncError) -> SyncSummary {
        var options = self.options
        let bar = SyncProgressBar(label: "\(soup) \(operation.rawValue)")
        options.progress = { progress in bar.update(progress) }
        defer { bar.finish() }
        return try sync.perform(operation, soup: soup, options: options)
    }

    /// A sync error as the CLI reports it: `CODE: message`.
    static func failure(_ error: SyncError) -> ToolFailure {
        ToolFailure("\(error.code): \(error.message)")
    }
}
