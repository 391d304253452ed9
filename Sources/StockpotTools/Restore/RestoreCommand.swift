// `stockpot restore STORE [FILE]`: a dump file, plain or encrypted, back into an empty store,
// all or nothing.

import Foundation
import Stockpot

/// The `restore` subcommand.
public struct RestoreCommand: ParsableCommand {
    /// The store directory to restore into.
    public var directory: String
    /// The dump file; nil for standard input.
    public var file: String?
    /// Replace a store that is not empty.
    public var replace: Bool
    /// The key file (`--key-file`, or STOCKPOT_KEY_FILE): the dump's key and the new store's.
    public var keyFile: String?
    /// Create a plain store even when a key file is given (to read an encrypted dump).
    public var plaintext: Bool

    /// How `restore` documents itself.
    public static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a dump file into an empty store, all or nothing.",
        discussion: """
            Reads a dump written by 'stockpot dump' (docs/format/dump.md) from FILE or standard input and recreates its soups, index specs, entries, entry ids, creation and modification dates and id high-water marks, so that new entries get the ids they would have got in the dumped store.
            STORE must not exist, or be an empty directory or a store without soups; --replace replaces a store that has soups (its contents are lost). The new store is built beside STORE and renamed into place only when the whole dump has been read and checked; a truncated or corrupt dump is reported with its line number (exit status 65) and leaves STORE as it was.
            An encrypted dump (written by 'stockpot dump' of an encrypted store) is read with --key-file, and the new store is then encrypted with the same key; --plaintext makes it a plain store instead. A plain dump restored with --key-file makes an encrypted store. A dump message that does not authenticate, or a dump cut before its final message, fails the restore (exit status 65) and leaves STORE as it was.
            """,
        usage: "restore STORE [FILE] [--replace] [--key-file F [--plaintext]]",
        arguments: [
            .init("STORE", "The store directory to restore into."),
            .init("FILE", "The dump file; standard input when absent or '-'."),
        ],
        options: [
            .init("--replace", "Replace STORE even when it holds soups."),
            KeyFile.optionHelp,
            .init("--plaintext", "Make STORE a plain store even though a key file is given (to read an encrypted dump)."),
        ],
        examples: [
            .init("restore ./copy store.dump", "Recreates the dumped store in ./copy."),
            .init("restore ./store --replace < store.dump", "Replaces ./store with the dump's contents."),
        ])

    /// Reads the arguments.
    public init(parsing arguments: inout ArgumentScanner) throws(UsageError) {
        replace = try arguments.takeFlag("--replace")
        keyFile = try KeyFile.takePath(&arguments)
        plaintext = try arguments.takeFlag("--plaintext")
        directory = try arguments.takePositional("STORE")
        file = arguments.takeOptionalPositional()
    }

    /// Restores the dump.
    public func run() -> ExitCode {
        do throws(ToolFailure) {
            let key = try KeyFile.encryption(keyFile)
            let storeKey = plaintext ? nil : key
            let source = try InputSource.open(file)
            let input = try DumpInput.open(source, encryption: key)
            let (existing, targetExists) = try checkTarget(encryption: storeKey)
            let staged: StagedStore
            do throws(ToolFailure) {
                staged = try StagedStore(target: directory, encryption: storeKey)
            } catch {
                if let existing { try? existing.close() }
                try? input.finish()
                throw error
            }
            let progress = ProgressBar(label: "restore", totalBytes: input.encrypted ? nil : source.size)
            let summary: RestoreLoader.Summary
            do throws(ToolFailure) {
                do throws(ToolFailure) {
                    summary = try RestoreLoader(store: staged.store).run(reading: input.fileDescriptor, progress: progress)
                } catch {
                    // A relay that failed explains the reader's failure (a cut or changed dump).
                    try input.finish()
                    throw error
                }
                // A dump that reads whole must also authenticate to its final message.
                try input.finish()
                progress.finish()
                try staged.install(replacing: existing, targetExists: targetExists)
            } catch {
                progress.finish()
                staged.abandon()
                if let existing { try? existing.close() }
                throw error
            }
            let seconds = progress.elapsedSeconds
            StandardStream.error.write(
                "Restored \(summary.soups) soups, \(summary.entries) entries (\(ByteCount.describe(summary.bytes))) into \(directory) in "
                    + ProgressBar.decimal(seconds, places: 2) + " s ("
                    + ProgressBar.decimal(seconds > 0 ? Double(summary.bytes) / 1e6 / seconds : 0, places: 1) + " MB/s).\n")
            return .success
        } catch {
            return error.report()
        }
    }

    /// Checks that the target may be restored into; returns the store there (held open until
    /// the new one replaces it) and whether anything exists at the path.
    private func checkTarget(encryption: StoreEncryption?) throws(ToolFailure) -> (Store?, Bool) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else { return (nil, false) }
        guard isDirectory.boolValue else { throw ToolFailure("\(directory) is a file, not a store directory") }
        guard StoreAccess.isStore(directory) else {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            guard names.isEmpty else {
                throw ToolFailure("\(directory) is a directory that holds files but no store; not restoring over it")
            }
            return (nil, true)
        }
        var options = StoreOptions()
        options.encryption = encryption
        let store = try StoreAccess.open(directory, options: options)
        let soups = store.allSoupNames()
        if !soups.isEmpty, !replace {
            try? store.close()
            throw ToolFailure(
                "the store at \(directory) is not empty (\(soups.count) soups); restore into a new store, or give --replace to replace it")
        }
        return (store, true)
    }
}
