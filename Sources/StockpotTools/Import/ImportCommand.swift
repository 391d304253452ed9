// `stockpot import STORE --soup NAME [--format jsonl|json|csv] [FILE]`: bulk ingestion of
// JSON Lines, a JSON array or CSV, batched with relaxed durability and made durable once, at
// the end (the store's close).

import Foundation
import Stockpot
import StockpotJSON

/// The `import` subcommand.
public struct ImportCommand: ParsableCommand {
    /// The store directory (created when missing).
    public var directory: String
    /// The soup to load.
    public var soup: String
    /// Specs to register the soup with when it does not exist.
    public var indexSpecs: [IndexSpec]
    /// Upsert by this path's value instead of inserting.
    public var externalIdPath: String?
    /// Skip bad lines instead of stopping.
    public var skipBad: Bool
    /// How the input is written.
    package var format: ImportFormat
    /// The input file; nil for standard input.
    public var file: String?
    /// The key file (`--key-file`, or STOCKPOT_KEY_FILE); nil for a plain store.
    public var keyFile: String?

    /// How `import` documents itself.
    public static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Load JSON Lines, a JSON array or CSV into a soup, fast.",
        discussion: """
            Reads FILE (or standard input) one document at a time. With --format jsonl (the default) each non-blank line is one JSON object; with json the input is one JSON array whose elements are the objects (read element by element, so its size is not limited by memory); with csv the first record names the members and every later record is one object: an unquoted field written as a JSON number becomes that number, every other field (quoted ones included) a string, an empty field "". Each document is upserted into the soup as one entry. Lines are written in batches of 1,000 lines or 8 MiB, whichever comes first, with relaxed durability, and the store is made durable once, when the import ends. A progress bar is drawn on standard error when it is a terminal; a summary line is always printed there.
            A line (array element, CSV record) that is not a JSON object (or that the store refuses, say for a unique index, or a CSV record with the wrong number of fields) is reported with its line (element) number, and column for JSON errors. A JSON array or CSV input whose structure is broken (an array that does not close, a CSV file without a header row) stops the import with exit status 65 whatever --skip-bad says. By default the import then stops with exit status 65 and writes nothing from the batch holding that line (the batches before it stay); with --skip-bad it skips such lines, counts them and goes on.
            The soup must exist unless --index specs are given, in which case it is registered with them when missing.
            """,
        usage: "import STORE --soup NAME [--format jsonl|json|csv] [--index PATH:TYPE ...] [--external-id PATH] [--skip-bad] [FILE]",
        arguments: [
            .init("STORE", "The store directory; created when it does not exist."),
            .init("FILE", "The input file; standard input when absent or '-'."),
        ],
        options: [
            .init("--soup NAME", "The soup to load (required)."),
            .init(
                "--format jsonl|json|csv", "How the input is written: JSON Lines (the default), one JSON array of objects, or CSV with a header row."),
            .init(
                "--index PATH:TYPE[:unique]",
                "An index spec to register the soup with when it does not exist; repeat for more. TYPE is string, integer, floating, full_text or json1."
            ),
            .init("--external-id PATH", "Upsert: a line whose value at PATH (an indexed path) matches an entry's replaces that entry."),
            .init("--skip-bad", "Skip and count bad lines instead of stopping at the first."),
            KeyFile.optionHelp,
        ],
        examples: [
            .init(
                "import ./store --soup accounts --index Name:full_text --index Industry:string accounts.jsonl",
                "Registers the soup 'accounts' if needed and loads accounts.jsonl into it."),
            .init(
                "import ./store --soup accounts --external-id Id --skip-bad < update.jsonl",
                "Updates the entries whose Id matches, inserts the others, skipping bad lines."),
            .init(
                "import ./store --soup accounts --format csv --index Name:string accounts.csv",
                "Loads a CSV file whose header row names the members."),
        ])

    /// Reads the options and arguments.
    public init(parsing arguments: inout ArgumentScanner) throws(UsageError) {
        guard let soup = try arguments.takeOption("--soup") else {
            throw UsageError("The option '--soup' is required.")
        }
        self.soup = soup
        indexSpecs = try arguments.takeRepeatedOption("--index").map { text throws(UsageError) in try Self.parseSpec(text) }
        externalIdPath = try arguments.takeOption("--external-id")
        skipBad = try arguments.takeFlag("--skip-bad")
        let formatName = try arguments.takeOption("--format") ?? ImportFormat.jsonl.rawValue
        guard let format = ImportFormat(rawValue: formatName.lowercased()) else {
            throw UsageError("The option '--format' must be \(ImportFormat.names), not '\(formatName)'.")
        }
        self.format = format
        keyFile = try KeyFile.takePath(&arguments)
        directory = try arguments.takePositional("STORE")
        file = arguments.takeOptionalPositional()
    }

    /// `PATH:TYPE` or `PATH:TYPE:unique`.
    static func parseSpec(_ text: String) throws(UsageError) -> IndexSpec {
        var parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        var unique = false
        if parts.count >= 3, parts.last == "unique" {
            unique = true
            parts.removeLast()
        }
        guard parts.count >= 2, let typeName = parts.last, let type = IndexType(parsing: typeName) else {
            throw UsageError("The option '--index' needs PATH:TYPE with TYPE string, integer, floating, full_text or json1, not '\(text)'.")
        }
        let path = parts.dropLast().joined(separator: ":")
        guard !path.isEmpty else { throw UsageError("The option '--index' needs a path before the type, not '\(text)'.") }
        return IndexSpec(path: path, type: type, unique: unique)
    }

    /// Opens the store, loads the input, closes the store (its one durable commit).
    public func run() -> ExitCode {
        LargeBuffers.returnToTheSystemWhenFreed()
        do {
            let summary = try load()
            var line =
                "Imported \(summary.imported) entries (\(ByteCount.describe(summary.bytes))) into soup \"\(soup)\" in "
                + ProgressBar.decimal(summary.seconds, places: 2) + " s ("
                + ProgressBar.decimal(summary.seconds > 0 ? Double(summary.imported) / summary.seconds : 0, places: 0)
                + " entries/s)"
            if skipBad { line += "; \(summary.skipped.count) bad lines skipped" }
            StandardStream.error.write(line + ".\n")
            return .success
        } catch {
            return error.report()
        }
    }

    private func load() throws(ToolFailure) -> (imported: Int, bytes: Int, skipped: [BadLine], seconds: Double) {
        let input = try InputSource.open(file)
        var options = StoreOptions()
        options.durability = .none
        options.encryption = try KeyFile.encryption(keyFile)
        // A store this import creates is removed again when the import fails.
        let creates =
            !StoreAccess.isStore(directory)
            && (!StoreAccess.exists(directory) || StoreAccess.isEmptyDirectory(directory))
        let keepsDirectory = StoreAccess.exists(directory)
        let store = try StoreAccess.open(directory, options: options)
        var outcome: Result<ImportSummary, ToolFailure>
        let progress = ProgressBar(label: "import", totalBytes: input.size)
        do throws(ToolFailure) {
            try prepareSoup(store)
            let importer = DocumentImporter(store: store, soup: soup, externalIdPath: externalIdPath, skipBad: skipBad)
            outcome = .success(try importer.run(reading: input.fileDescriptor, format: format, progress: progress))
        } catch {
            outcome = .failure(error)
        }
        progress.finish()
        // The close is the durable commit of everything written, also after a bad line.
        do throws(ToolFailure) {
            try StoreAccess.close(store)
        } catch {
            if creates { removeCreatedStore(keepingDirectory: keepsDirectory) }
            throw error
        }
        if case .failure = outcome, creates {
            removeCreatedStore(keepingDirectory: keepsDirectory)
            StandardStream.error.write("Removed the store this import created at \(directory).\n")
        }
        let summary = try outcome.get()
        for bad in summary.skipped.prefix(20) {
            StandardStream.error.write("Skipped \(bad).\n")
        }
        if summary.skipped.count > 20 {
            StandardStream.error.write("Skipped \(summary.skipped.count - 20) more bad lines.\n")
        }
        return (summary.imported, summary.bytes, summary.skipped, progress.elapsedSeconds)
    }

    /// Removes the store this import created in `directory`: the directory itself, or only
    /// what is in it when it existed (empty) before.
    private func removeCreatedStore(keepingDirectory: Bool) {
        let files = FileManager.default
        guard keepingDirectory else {
            try? files.removeItem(atPath: directory)
            return
        }
        for name in (try? files.contentsOfDirectory(atPath: directory)) ?? [] {
            try? files.removeItem(atPath: directory + "/" + name)
        }
    }

    /// Registers the soup when it is missing and specs are given.
    private func prepareSoup(_ store: Store) throws(ToolFailure) {
        if store.soupExists(soup) {
            if !indexSpecs.isEmpty, let existing = try? store.indexSpecs(of: soup), existing != indexSpecs {
                StandardStream.error.write("Warning: soup \"\(soup)\" exists with other index specs; keeping them (use alterSoup to change them).\n")
            }
            return
        }
        guard !indexSpecs.isEmpty else {
            throw ToolFailure("there is no soup \"\(soup)\" in \(directory); give --index PATH:TYPE to register it")
        }
        do {
            try store.registerSoup(soup, indexSpecs: indexSpecs)
        } catch {
            throw ToolFailure(error, doing: "cannot register soup \"\(soup)\"")
        }
    }
}
