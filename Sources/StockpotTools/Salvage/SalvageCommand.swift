// `stockpot salvage DAMAGED NEW`: everything still readable of a damaged store copied into a
// new one (built beside NEW and renamed into place), and every loss named.

import Stockpot

/// The `salvage` subcommand.
public struct SalvageCommand: ParsableCommand {
    /// The damaged store's directory.
    public var damaged: String
    /// Where the new store goes.
    public var target: String
    /// The key file (`--key-file`, or STOCKPOT_KEY_FILE); nil for a plain store.
    public var keyFile: String?

    /// How `salvage` documents itself.
    public static let configuration = CommandConfiguration(
        commandName: "salvage",
        abstract: "Copy everything still readable from a damaged store into a new one.",
        discussion: """
            Reads every segment file of DAMAGED record by record, skipping damaged byte ranges (each record carries its own checksum, so reading resumes at the next record that verifies), takes the newest readable version of every entry and catalog record, and writes the soups and entries found, with their ids, dates and id high-water marks, into a new store at NEW. DAMAGED is only read.
            Prints what was saved, then one line per loss: the soup and entry id when the damaged record's header still names them, the file and byte offset of the damage, and why. A record in a damaged range may also have hidden a newer version of an entry that salvage saved in an older version. Exit status 0 when nothing was lost, 1 when something was (NEW is written either way) or salvage failed.
            """,
        usage: "salvage DAMAGED NEW",
        arguments: [
            .init("DAMAGED", "The damaged store's directory (not open elsewhere)."),
            .init("NEW", "Where to create the new store; it must not exist, or be empty."),
        ],
        options: [
            .init(
                "--key-file F",
                "The damaged store's key (64 hex digits or a one-line passphrase; default: the file STOCKPOT_KEY_FILE names). Records that do not authenticate under it are reported as lost, never guessed at; NEW is encrypted with the same key."
            )
        ],
        examples: [.init("salvage ./broken ./rescued", "Saves what ./broken still holds into ./rescued.")])

    /// Reads the arguments.
    public init(parsing arguments: inout ArgumentScanner) throws(UsageError) {
        keyFile = try KeyFile.takePath(&arguments)
        damaged = try arguments.takePositional("DAMAGED")
        target = try arguments.takePositional("NEW")
    }

    /// Salvages and reports.
    public func run() -> ExitCode {
        do throws(ToolFailure) {
            guard StoreAccess.exists(damaged) else { throw ToolFailure("there is no directory \(damaged)") }
            if StoreAccess.exists(target) {
                guard StoreAccess.isEmptyDirectory(target) else {
                    throw ToolFailure("\(target) exists and is not empty; salvage writes into a new store")
                }
            }
            let encryption = try KeyFile.encryption(keyFile)
            let salvage: StoreSalvage
            do {
                salvage = try Store.salvage(directory: damaged, encryption: encryption)
            } catch {
                throw ToolFailure(error, doing: "cannot read \(damaged)", hint: StoreAccess.keyHint(error))
            }
            var losses = salvage.losses.map(\.description)
            let staged = try StagedStore(target: target, encryption: encryption)
            var saved = 0
            do throws(ToolFailure) {
                for soup in salvage.soups {
                    let (written, refused) = try write(soup, into: staged.store)
                    saved += written
                    losses += refused
                }
                losses += try writeChangeFeed(salvage, into: staged.store)
                try staged.install(replacing: nil, targetExists: StoreAccess.exists(target))
            } catch {
                staged.abandon()
                throw error
            }
            var lines = [
                "read \(salvage.segments) segment files (\(ByteCount.describe(salvage.bytesRead))), \(salvage.recordsRead) records that verify",
                "saved \(salvage.soups.count) soups and \(saved) entries into \(target)",
            ]
            for soup in salvage.soups {
                guard let soupID = soup.lostSoupID else { continue }
                lines.append(
                    "KEPT: \(soup.entries.count) entries of soup id \(soupID), whose catalog record (name and index specs) was lost, in soup \"\(soup.description.name)\" (indexed on _soupEntryId only; rename or alter it to restore its specs)"
                )
                losses.append(
                    "catalog record of soup id \(soupID): its name and index specs are lost (its entries are in \"\(soup.description.name)\")")
            }
            lines += losses.map { "LOST: " + $0 }
            lines.append(losses.isEmpty ? "salvage: nothing lost" : "salvage: \(losses.count) losses")
            StandardStream.output.write(lines.joined(separator: "\n") + "\n")
            return losses.isEmpty ? .success : .failure
        } catch {
            return error.report()
        }
    }

    /// Writes the salvaged tombstones and the change feed's state (docs/changes.md), so that
    /// a consumer of the damaged store's feed can go on with the salvaged one; returns what
    /// was refused.
    private func writeChangeFeed(_ salvage: StoreSalvage, into store: Store) throws(ToolFailure) -> [String] {
        do {
            try store.write { transaction in
                for tombstone in salvage.tombstones {
                    try transaction.restoreTombstone(
                        sequence: tombstone.sequence, kind: tombstone.operation, soupName: tombstone.soupName,
                        entryID: tombstone.entryID, time: tombstone.time, key: tombstone.key)
                }
                try transaction.restoreSequenceState(lastSequence: salvage.lastSequence, purgedThrough: salvage.purgedThrough)
            }
            return []
        } catch let error as StockpotError where error.code == .ioError {
            throw ToolFailure(error, doing: "cannot write \(target)")
        } catch {
            return ["the change feed's tombstones and sequence state: the new store refuses them: \(error)"]
        }
    }

    /// Writes one soup; entries the store refuses (say, two versions that now break a unique
    /// index) are skipped and named.
    private func write(_ soup: SalvagedSoup, into store: Store) throws(ToolFailure) -> (Int, [String]) {
        do {
            try store.write { transaction in
                try transaction.restoreSoup(soup.description.name, indexSpecs: soup.description.specs, nextEntryID: soup.description.nextEntryID)
            }
        } catch let error as StockpotError {
            return (0, ["soup \"\(soup.description.name)\" (\(soup.entries.count) entries): cannot be created: \(error.message)"])
        } catch {
            return (0, ["soup \"\(soup.description.name)\": cannot be created: \(error)"])
        }
        var written = 0
        var refused: [String] = []
        var start = 0
        while start < soup.entries.count {
            let batch = Array(soup.entries[start..<min(start + 1000, soup.entries.count)])
            start += batch.count
            do {
                try store.write { transaction in try transaction.restore(batch, into: soup.description.name) }
                written += batch.count
                continue
            } catch let error as StockpotError where error.code == .ioError {
                throw ToolFailure(error, doing: "cannot write \(target)")
            } catch {}
            for entry in batch {
                do {
                    try store.write { transaction in try transaction.restore([entry], into: soup.description.name) }
                    written += 1
                } catch {
                    refused.append("soup \"\(soup.description.name)\" entry \(entry.id): read, but the new store refuses it: \(error)")
                }
            }
        }
        return (written, refused)
    }
}
