// json.systemfields: what store ingest does to each document's bytes before storing them:
// validate, find _soupEntryId/_soupLastModifiedDate, set both. JSONIntegerMembers (scan, then
// splice canonical input) against JSONReader.parse + subscript set + JSONWriter.write.
// MB/s of input document bytes; the note gives the share of documents on the splice path.

import Stockpot
import StockpotJSON

struct JSONSystemFieldsWorkload: Workload {
    let name = "json.systemfields"
    let summary = "set _soupEntryId/_soupLastModifiedDate on raw bytes: JSONIntegerMembers vs parse+set+write (MB/s)"

    /// The fixed modification time both sides write.
    static let time: Int64 = 1_764_500_000_000

    func run(in context: BenchContext) throws -> BenchResult {
        let corpus = context.corpus
        let runs = context.options.runs
        let canonical = try crossCheck(corpus)

        let stockpot = try Stopwatch.medianSeconds(runs: runs) {
            var checksum: UInt64 = 0
            var id: Int64 = 0
            try corpus.forEachDocument { bytes in
                id += 1
                let scan = try SystemField.inspect(bytes)
                if case .integer(let given)? = scan.entryID { checksum &+= UInt64(bitPattern: given) }
                checksum &+= UInt64(try scan.stamped(bytes, entryID: id, lastModified: Self.time).count)
            }
            Sink.consume(checksum)
        }
        let baseline = try Stopwatch.medianSeconds(runs: runs) {
            var checksum: UInt64 = 0
            var id: Int64 = 0
            try corpus.forEachDocument { bytes in
                id += 1
                checksum &+= UInt64(try Self.slowPath(bytes, id: id).count)
            }
            Sink.consume(checksum)
        }
        return BenchResult(
            workload: name, unit: .megabytesPerSecond,
            stockpot: context.corpusMegabytes / stockpot, baseline: context.corpusMegabytes / baseline,
            baselineName: "parse+set+write",
            note: "\(canonical) of \(corpus.count) documents spliced")
    }

    /// The path store ingest takes today.
    private static func slowPath(_ bytes: UnsafeRawBufferPointer, id: Int64) throws -> [UInt8] {
        guard case .object(var object) = try JSONReader.parse(bytes) else {
            throw BenchFailure("json.systemfields: a corpus document is not an object")
        }
        // The store reads both fields before it sets them.
        if case .integer(let given)? = object[SystemField.entryID], given < 0 {
            throw BenchFailure("json.systemfields: a corpus document has a negative entry id")
        }
        _ = object[SystemField.lastModified]
        object[SystemField.entryID] = .integer(id)
        object[SystemField.lastModified] = .integer(time)
        return JSONWriter.write(.object(object))
    }

    /// Fails unless both sides store identical bytes for every document; returns how many
    /// documents are canonical.
    private func crossCheck(_ corpus: Corpus) throws -> Int {
        var canonical = 0
        var id: Int64 = 0
        try corpus.forEachDocument { bytes in
            id += 1
            let scan = try SystemField.inspect(bytes)
            if scan.isCanonical { canonical += 1 }
            guard try scan.stamped(bytes, entryID: id, lastModified: Self.time) == Self.slowPath(bytes, id: id) else {
                throw BenchFailure("json.systemfields: document \(id - 1) differs from parse+set+write")
            }
        }
        return canonical
    }
}
