// `stockpot dump STORE [--output FILE]`: the whole store as a dump file
// (docs/format/dump.md), read from one consistent view; an encrypted store's dump is encrypted
// (docs/format/encryption.md, "Encrypted dump") unless --plaintext is given.

import Stockpot
import StockpotJSON
import StockpotStorage

/// The `dump` subcommand.
public struct DumpCommand: ParsableCommand {
    /// The store directory.
    public var directory: String
    /// The output file; nil for standard output.
    public var outputPath: String?
    /// The key file (`--key-file`, or STOCKPOT_KEY_FILE); nil for a plain store.
    public var keyFile: String?
    /// Write an encrypted store's dump as plain JSON Lines.
    public var plaintext: Bool

    /// How `dump` documents itself.
    public static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Write a whole store as a dump file (versioned JSON Lines).",
        discussion: """
            Writes every soup of STORE (its index specs and id high-water mark) and every entry (with its id, creation and modification dates, large values included) as JSON Lines, in the format of docs/format/dump.md: a header line, a line per soup followed by its entries in id order, and a trailer line with counts and a checksum, so that a truncated or altered dump is detected by restore. The dump is one consistent point-in-time view of the store. With --output the file is written under a temporary name, synced and renamed when complete.
            The dump of an encrypted store is encrypted with the same key file (libsodium's secretstream; docs/format/encryption.md, "Encrypted dump"), so it restores with that key file and without the store; --plaintext writes it as plain JSON Lines instead.
            """,
        usage: "dump STORE [--output FILE] [--key-file F [--plaintext]]",
        arguments: [.init("STORE", "The store directory; it must exist.")],
        options: [
            .init("--output FILE", "Write the dump to FILE instead of standard output."),
            KeyFile.optionHelp,
            .init("--plaintext", "Write an encrypted store's dump unencrypted (anyone who reads the dump reads every document)."),
        ],
        examples: [
            .init("dump ./store --output store.dump", "Backs up ./store into store.dump."),
            .init("dump ./store | gzip > store.dump.gz", "Streams a compressed backup."),
        ])

    /// Reads the arguments.
    public init(parsing arguments: inout ArgumentScanner) throws(UsageError) {
        outputPath = try arguments.takeOption("--output")
        keyFile = try KeyFile.takePath(&arguments)
        plaintext = try arguments.takeFlag("--plaintext")
        directory = try arguments.takePositional("STORE")
    }

    /// Writes the dump.
    public func run() -> ExitCode {
        do {
            let encryption = try KeyFile.encryption(keyFile)
            let store = try StoreAccess.openForReading(directory, encryption: encryption)
            let result: Result<(Int, Int, Int, Double), ToolFailure>
            do throws(ToolFailure) {
                result = .success(try dump(store, sealing: plaintext ? nil : encryption))
            } catch {
                result = .failure(error)
            }
            try StoreAccess.close(store)
            let (soups, entries, bytes, seconds) = try result.get()
            StandardStream.error.write(
                "Dumped \(soups) soups, \(entries) entries (\(ByteCount.describe(bytes))) in "
                    + ProgressBar.decimal(seconds, places: 2) + " s ("
                    + ProgressBar.decimal(seconds > 0 ? Double(bytes) / 1e6 / seconds : 0, places: 1) + " MB/s).\n")
            return .success
        } catch {
            return error.report()
        }
    }

    /// Writes the dump of `store`, encrypted under `encryption` when given; returns soups,
    /// entries, bytes and seconds.
    private func dump(_ store: Store, sealing encryption: StoreEncryption?) throws(ToolFailure) -> (Int, Int, Int, Double) {
        let output = try outputPath.map { path throws(ToolFailure) in try ByteOutput.file(path) } ?? .standardOutput()
        do throws(ToolFailure) {
            if let encryption { output.seal(with: try Self.sealer(encryption)) }
            let view = store.view()
            let progress = ProgressBar(label: "dump", totalEntries: try Self.totalEntries(view))
            defer { progress.finish() }
            try DumpCommand.write(view, to: output, progress: progress)
            try output.finish()
            return (view.allSoupNames().count, try Self.totalEntries(view), output.byteCount, progress.elapsedSeconds)
        } catch {
            output.abandon()
            throw error
        }
    }

    /// The sealer of an encrypted dump keyed by `encryption`.
    package static func sealer(_ encryption: StoreEncryption) throws(ToolFailure) -> DumpStream.Sealer {
        do throws(StorageError) {
            return try DumpStream.Sealer(encryption: encryption)
        } catch {
            throw ToolFailure("cannot encrypt the dump: \(error.message)", status: error.code == .ioError ? .ioError : .failure)
        }
    }

    private static func totalEntries(_ view: StoreView) throws(ToolFailure) -> Int {
        var total = 0
        for name in view.allSoupNames() {
            do {
                total += try view.count(of: name)
            } catch {
                throw ToolFailure(error, doing: "cannot count soup \"\(name)\"")
            }
        }
        return total
    }

    /// Writes the dump of one view to `output` (everything but the final flush).
    package static func write(_ view: StoreView, to output: ByteOutput, progress: ProgressBar? = nil) throws(ToolFailure) {
        let writer = DumpWriter(output: output)
        try writer.writeHeader(lastSequence: view.lastSequence, purgedThrough: view.purgedThrough)
        for name in view.allSoupNames() {
            let soup: SoupDescription
            do {
                soup = try view.describeSoup(name)
            } catch {
                throw ToolFailure(error, doing: "cannot read soup \"\(name)\"")
            }
            try writer.writeSoup(soup)
            do {
                try view.forEachEntry(in: name) { id, created, sequence, document in
                    let lastModified = try Self.lastModified(of: document, id: id, soup: name)
                    try writer.writeEntry(id: id, created: created, lastModified: lastModified, sequence: sequence, document: document)
                    if writer.entries % 1024 == 0 { progress?.update(entries: writer.entries, bytes: output.byteCount) }
                    return true
                }
            } catch let failure as ToolFailure {
                throw failure
            } catch let error as StockpotError {
                throw ToolFailure(error, doing: "cannot read soup \"\(name)\"")
            } catch {
                throw ToolFailure("cannot read soup \"\(name)\": \(error)")
            }
        }
        do {
            try view.forEachTombstone { tombstone in try writer.writeTombstone(tombstone) }
        } catch let failure as ToolFailure {
            throw failure
        } catch let error as StockpotError {
            throw ToolFailure(error, doing: "cannot read the tombstones")
        } catch {
            throw ToolFailure("cannot read the tombstones: \(error)")
        }
        try writer.writeTrailer()
    }

    /// The `_soupLastModifiedDate` of a stored document.
    private static func lastModified(of document: [UInt8], id: Int64, soup: String) throws(ToolFailure) -> Int64 {
        guard let value = SystemField.storedLastModified(in: document) else {
            throw ToolFailure("entry \(id) of soup \"\(soup)\" has no readable _soupLastModifiedDate; run 'stockpot verify'")
        }
        return value
    }
}
