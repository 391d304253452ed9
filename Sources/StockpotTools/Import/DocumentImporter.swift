// The load loop of `stockpot import`: documents from an ImportSource (JSON Lines, a JSON array,
// CSV), 1,000 documents or 8 MiB (whichever comes first) per write through the store's bytes
// upsert (no tree for canonical documents). A failing batch writes nothing; its documents are
// then tried one by one in one transaction to name the bad one.

import Stockpot
import StockpotJSON

/// A bad input line (or JSON array element): where and why.
package struct BadLine: Sendable, CustomStringConvertible {
    /// 1-based line number in the input (element number for a JSON array).
    package var line: Int
    /// 1-based byte column, when the line is not JSON.
    package var column: Int?
    /// What is wrong.
    package var reason: String
    /// What `line` counts: `line`, or `element` in a JSON array.
    package var unit = "line"

    package init(line: Int, column: Int? = nil, reason: String, unit: String = "line") {
        self.line = line
        self.column = column
        self.reason = reason
        self.unit = unit
    }

    package var description: String {
        "\(unit) \(line)" + (column.map { ", column \($0)" } ?? "") + ": " + reason
    }
}

/// What an import did.
package struct ImportSummary: Sendable {
    /// Entries written.
    package var imported = 0
    /// Input bytes read.
    package var bytes = 0
    /// Lines (JSON array elements) read, blank ones included.
    package var lines = 0
    /// Bad lines skipped (with `skipBad`).
    package var skipped: [BadLine] = []
    /// Write transactions made (one per batch).
    package var batches = 0
    /// The most input bytes one batch held: what bounds the import's memory.
    package var largestBatchBytes = 0

    /// Nothing yet.
    package init() {}
}

/// Loads documents into one soup of an open store. Not thread-safe: one run at a time.
package struct DocumentImporter {
    /// The store written to.
    package let store: Store
    /// The soup written to (it must exist).
    package let soup: String
    /// Entries matched by this path's value are updated instead of inserted.
    package let externalIdPath: String?
    /// Skip and count bad lines instead of stopping at the first.
    package let skipBad: Bool
    /// Lines per write transaction, at most.
    package var batchSize = 1000
    /// Input bytes per write transaction: a batch ends at the line that reaches this many
    /// (so a batch holds at most this plus one line), keeping the import's memory a small
    /// multiple of it whatever the lines' sizes.
    package var batchBytes = 8 << 20
    /// The longest line read; longer ones are bad lines.
    package var maxLineBytes = 64 << 20

    /// Creates an importer.
    package init(store: Store, soup: String, externalIdPath: String? = nil, skipBad: Bool = false) {
        self.store = store
        self.soup = soup
        self.externalIdPath = externalIdPath
        self.skipBad = skipBad
    }

    /// One input line kept for its batch.
    private struct Line {
        var number: Int
        var bytes: [UInt8]
    }

    /// Reads `fileDescriptor` to its end in `format` and writes every document as an entry.
    ///
    /// - Parameter progress: told after each batch.
    /// - Throws: ``ToolFailure``: status 65 at a bad line (unless skipping) or a broken
    ///   input structure, 74 when reading or writing fails, 1 for other store failures. The
    ///   batches before a failing one stay written; nothing of the failing batch is.
    package func run(reading fileDescriptor: Int32, format: ImportFormat = .jsonl, progress: ProgressBar? = nil) throws(ToolFailure) -> ImportSummary
    {
        var source = format.source(reading: fileDescriptor, maxDocumentBytes: maxLineBytes)
        return try run(from: &source, unit: format.unit, progress: progress)
    }

    /// Reads `source` to its end and writes every document as an entry; as
    /// ``run(reading:format:progress:)``.
    package func run(from source: inout some ImportSource, unit: String, progress: ProgressBar? = nil) throws(ToolFailure) -> ImportSummary {
        var summary = ImportSummary()
        var batch: [Line] = []
        var held = 0
        batch.reserveCapacity(min(batchSize, 1024))
        func note(_ source: some ImportSource) {
            summary.lines = source.unitsRead
            summary.bytes = source.bytesRead
        }
        while let item = try source.next() {
            note(source)
            switch item {
            case .bad(var bad):
                bad.unit = unit
                try reject(bad, &summary)
            case .document(let number, let bytes):
                batch.append(Line(number: number, bytes: bytes))
                held += bytes.count
                if batch.count >= batchSize || held >= batchBytes {
                    try write(batch, bytes: held, unit: unit, &summary)
                    batch.removeAll(keepingCapacity: true)
                    held = 0
                    progress?.update(entries: summary.imported, bytes: summary.bytes)
                }
            }
        }
        note(source)
        if !batch.isEmpty { try write(batch, bytes: held, unit: unit, &summary) }
        progress?.update(entries: summary.imported, bytes: summary.bytes)
        return summary
    }

    private func reject(_ bad: BadLine, _ summary: inout ImportSummary) throws(ToolFailure) {
        guard skipBad else { throw ToolFailure(bad.description, status: .dataError) }
        summary.skipped.append(bad)
    }

    /// Writes one batch; when the store refuses it, finds the bad lines one by one.
    private func write(_ batch: [Line], bytes: Int, unit: String, _ summary: inout ImportSummary) throws(ToolFailure) {
        summary.batches += 1
        summary.largestBatchBytes = max(summary.largestBatchBytes, bytes)
        do {
            try store.write { transaction in
                _ = try transaction.upsert(json: batch.map(\.bytes), into: soup, externalIdPath: externalIdPath)
            }
            summary.imported += batch.count
            return
        } catch let error as StockpotError where Self.isAboutAnEntry(error) {
            // Fall through: find the line.
        } catch let error as StockpotError {
            throw ToolFailure(error, doing: "cannot write to soup \"\(soup)\"")
        } catch {
            throw ToolFailure("cannot write to soup \"\(soup)\": \(error)")
        }
        let outcome: (written: Int, skipped: [BadLine])
        do {
            outcome = try store.write { transaction in try retry(batch, unit: unit, in: transaction) }
        } catch let failure as ToolFailure {
            throw failure
        } catch let error as StockpotError {
            throw ToolFailure(error, doing: "cannot write to soup \"\(soup)\"")
        } catch {
            throw ToolFailure("cannot write to soup \"\(soup)\": \(error)")
        }
        let (written, skipped) = outcome
        summary.imported += written
        summary.skipped += skipped
    }

    /// Writes a refused batch's lines one by one in `transaction`: the bad ones are skipped
    /// (or stop the import, which throws away the transaction).
    private func retry(_ batch: [Line], unit: String, in transaction: WriteTransaction) throws -> (written: Int, skipped: [BadLine]) {
        var written = 0
        var skipped: [BadLine] = []
        for line in batch {
            let refusal: StockpotError
            do {
                _ = try transaction.upsert(json: [line.bytes], into: soup, externalIdPath: externalIdPath)
                written += 1
                continue
            } catch {
                refusal = error
            }
            guard Self.isAboutAnEntry(refusal) else { throw refusal }
            var bad = Self.describe(line, refusal)
            bad.unit = unit
            guard skipBad else { throw ToolFailure(bad.description, status: .dataError) }
            skipped.append(bad)
        }
        return (written, skipped)
    }

    /// Whether the store refused an entry (rather than failing as a whole).
    private static func isAboutAnEntry(_ error: StockpotError) -> Bool {
        switch error.code {
        case .invalidEntry, .entryNotFound, .externalIdMissing, .externalIdNotUnique, .uniqueViolation, .limitExceeded:
            true
        default:
            false
        }
    }

    /// The bad line for a refused entry: the column of a JSON syntax error, else the reason.
    private static func describe(_ line: Line, _ error: StockpotError) -> BadLine {
        do {
            let value = try JSONReader.parse(line.bytes)
            if case .object = value {
                return BadLine(line: line.number, reason: "\(error.code): \(error.message)")
            }
            return BadLine(line: line.number, column: 1, reason: "the line is not a JSON object")
        } catch {
            return BadLine(line: line.number, column: error.offset + 1, reason: "\(error.message) (\(error.code))")
        }
    }
}
