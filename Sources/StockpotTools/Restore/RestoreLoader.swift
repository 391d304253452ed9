// Feeds a dump's events into a store: each soup created with its specs and id high-water
// mark, its entries written with their ids, dates and sequences, 1,000 per transaction, then
// the tombstones and the store's sequence state. A refused entry is named by its dump line.

import Stockpot
import StockpotJSON

/// Loads a dump into an open (new, empty) store. Not thread-safe.
package struct RestoreLoader {
    /// The store written to.
    package let store: Store
    /// Entries per write transaction.
    package var batchSize = 1000

    /// Creates a loader.
    package init(store: Store) {
        self.store = store
    }

    /// What a restore wrote.
    package struct Summary: Sendable {
        package var soups = 0
        package var entries = 0
        package var bytes = 0
    }

    private struct Pending {
        var entry: RestoredEntry
        var line: Int
        var documentColumn: Int?
    }

    /// Reads the dump from `fileDescriptor` to its trailer and writes it into the store.
    ///
    /// - Throws: ``ToolFailure``: 65 with the line for a bad dump or a refused entry, 74 for
    ///   an I/O error, 1 otherwise. What was written before stays in the store; the caller
    ///   discards the store (restore stages it).
    package func run(reading fileDescriptor: Int32, progress: ProgressBar? = nil) throws(ToolFailure) -> Summary {
        var reader = DumpReader(fileDescriptor: fileDescriptor)
        var summary = Summary()
        var soup: String?
        var sequences: (last: UInt64, purgedThrough: UInt64)?
        var tombstones: [TombstoneDescription] = []
        var batch: [Pending] = []
        batch.reserveCapacity(batchSize)
        while true {
            let event: DumpEvent?
            do {
                event = try reader.next()
            } catch {
                throw ToolFailure(error.description, status: .dataError)
            }
            guard let event else { break }
            switch event {
            case .sequences(let last, let purgedThrough):
                sequences = (last, purgedThrough)
            case .tombstone(let tombstone, let line):
                if let soup { try write(batch, into: soup) }
                summary.entries += batch.count
                batch.removeAll()
                soup = nil
                tombstones.append(tombstone)
                if tombstones.count == batchSize {
                    try write(tombstones, line: line)
                    tombstones.removeAll(keepingCapacity: true)
                }
            case .soup(let description):
                if let soup { try write(batch, into: soup) }
                summary.entries += batch.count
                batch.removeAll(keepingCapacity: true)
                try create(description, line: reader.lineNumber)
                soup = description.name
                summary.soups += 1
            case .entry(let entry, let line, let column):
                batch.append(Pending(entry: entry, line: line, documentColumn: column))
                if batch.count == batchSize, let soup {
                    try write(batch, into: soup)
                    summary.entries += batch.count
                    batch.removeAll(keepingCapacity: true)
                    progress?.update(entries: summary.entries, bytes: reader.bytesRead)
                }
            case .end:
                if let soup { try write(batch, into: soup) }
                summary.entries += batch.count
                batch.removeAll()
                try write(tombstones, line: reader.lineNumber)
                tombstones.removeAll()
                if let sequences { try restore(sequences, line: reader.lineNumber) }
            }
        }
        summary.bytes = reader.bytesRead
        progress?.update(entries: summary.entries, bytes: summary.bytes)
        return summary
    }

    /// Writes tombstones (a version-2 dump's) with their sequences.
    private func write(_ tombstones: [TombstoneDescription], line: Int) throws(ToolFailure) {
        guard !tombstones.isEmpty else { return }
        do {
            try store.write { transaction in
                for tombstone in tombstones {
                    try transaction.restoreTombstone(
                        sequence: tombstone.sequence, kind: tombstone.operation, soupName: tombstone.soupName,
                        entryID: tombstone.entryID, time: tombstone.time, key: tombstone.key)
                }
            }
        } catch let error as StockpotError where error.code != .ioError {
            throw ToolFailure("line \(line): the tombstones cannot be written: \(error.message)", status: .dataError)
        } catch let error as StockpotError {
            throw ToolFailure(error, doing: "cannot write the tombstones")
        } catch {
            throw ToolFailure("cannot write the tombstones: \(error)")
        }
    }

    /// Restores the store's last sequence and purge horizon (a version-2 dump's header).
    private func restore(_ sequences: (last: UInt64, purgedThrough: UInt64), line: Int) throws(ToolFailure) {
        do {
            try store.write { transaction in
                try transaction.restoreSequenceState(lastSequence: sequences.last, purgedThrough: sequences.purgedThrough)
            }
        } catch let error as StockpotError where error.code != .ioError {
            throw ToolFailure("line \(line): the sequence state cannot be restored: \(error.message)", status: .dataError)
        } catch let error as StockpotError {
            throw ToolFailure(error, doing: "cannot restore the sequence state")
        } catch {
            throw ToolFailure("cannot restore the sequence state: \(error)")
        }
    }

    private func create(_ soup: SoupDescription, line: Int) throws(ToolFailure) {
        do {
            try store.write { transaction in
                try transaction.restoreSoup(
                    soup.name, indexSpecs: soup.specs, nextEntryID: soup.nextEntryID, externalIdPath: soup.externalIdPath)
            }
        } catch let error as StockpotError where error.code != .ioError {
            throw ToolFailure("line \(line): the soup \"\(soup.name)\" cannot be created: \(error.message)", status: .dataError)
        } catch let error as StockpotError {
            throw ToolFailure(error, doing: "cannot create soup \"\(soup.name)\"")
        } catch {
            throw ToolFailure("cannot create soup \"\(soup.name)\": \(error)")
        }
    }

    /// Writes one batch; when the store refuses it, writes its entries one by one (in a
    /// transaction that is then thrown away) to name the line.
    private func write(_ batch: [Pending], into soup: String) throws(ToolFailure) {
        guard !batch.isEmpty else { return }
        let refusal: StockpotError
        do {
            try store.write { transaction in try transaction.restore(batch.map(\.entry), into: soup) }
            return
        } catch let error as StockpotError where error.code != .ioError {
            refusal = error
        } catch let error as StockpotError {
            throw ToolFailure(error, doing: "cannot write to soup \"\(soup)\"")
        } catch {
            throw ToolFailure("cannot write to soup \"\(soup)\": \(error)")
        }
        var failure = ToolFailure("soup \"\(soup)\": \(refusal.message)", status: .dataError)
        _ = try? store.write { transaction in
            for pending in batch {
                do throws(StockpotError) {
                    try transaction.restore([pending.entry], into: soup)
                } catch {
                    failure = Self.describe(pending, error)
                    throw error
                }
            }
        }
        throw failure
    }

    private static func describe(_ pending: Pending, _ error: StockpotError) -> ToolFailure {
        var column: Int?
        var message = error.message
        do {
            _ = try JSONReader.parse(pending.entry.document)
        } catch {
            column = pending.documentColumn.map { $0 + error.offset }
            message = "the document is not JSON: \(error.message) (\(error.code))"
        }
        let location = "line \(pending.line)" + (column.map { ", column \($0)" } ?? "")
        return ToolFailure("\(location): \(message)", status: .dataError)
    }
}
