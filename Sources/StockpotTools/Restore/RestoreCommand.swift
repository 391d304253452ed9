// `stockpot restore STORE [FILE]`: a dump file back into an empty store, all or nothing.

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

    /// How `restore` documents itself.
    public static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a dump file into an empty store, all or nothing.",
        discussion: """
            Reads a dump written by 'stockpot dump' (docs/format/dump.md) from FILE or standard input and recreates its soups, index specs, entries, entry ids, creation and modification dates and id high-water marks, so that new entries get the ids they would have got in the dumped store.
            STORE must not exist, or be an empty directory or a store without soups; --replace replaces a store that has soups (its contents are lost). The new store is built beside STORE and renamed into place only when the whole dump has been read and checked; a truncated or corrupt dump is reported with its line number (exit status 65) and leaves STORE as it was.
            """,
        usage: "restore STORE [FILE] [--replace]",
        arguments: [
            .init("STORE", "The store directory to restore into."),
            .init("FILE", "The dump file; standard input when absent or '-'."),
        ],
        options: [.init("--replace", "Replace STORE even when it holds soups.")],
        examples: [
            .init("restore ./copy store.dump", "Recreates the dumped store in ./copy."),
            .init("restore ./store --replace < store.dump", "Replaces ./store with the dump's contents."),
        ])

    /// Reads the arguments.
    public init(parsing arguments: inout ArgumentScanner) throws(UsageError) {
        replace = try arguments.takeFlag("--replace")
        directory = try arguments.takePositional("STORE")
        file = arguments.takeOptionalPositional()
    }

    /// Restores the dump.
    public func run() -> ExitCode {
        do throws(ToolFailure) {
            let input = try InputSource.open(file)
            let (existing, targetExists) = try checkTarget()
            let staged: StagedStore
            do throws(ToolFailure) {
                staged = try StagedStore(target: directory)
            } catch {
                if let existing { try? existing.close() }
                throw error
            }
            let progress = ProgressBar(label: "restore", totalBytes: input.size)
            let summary: RestoreLoader.Summary
            do throws(ToolFailure) {
                summary = try RestoreLoader(store: staged.store).run(reading: input.fileDescriptor, progress: progress)
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
    private func checkTarget() throws(ToolFailure) -> (Store?, Bool) {
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
        let store = try StoreAccess.open(directory)
        let soups = store.allSoupNames()
        if !soups.isEmpty, !replace {
            try? store.close()
            throw ToolFailure(
                "the store at \(directory) is not empty (\(soups.count) soups); restore into a new store, or give --replace to replace it")
        }
        return (store, true)
    }
}
