// json.extract: the five index values of AccountSoup.extractedFields from raw document bytes,
// JSONFieldExtractor (no tree) against Foundation (parse the tree, project, coerce).
// MB/s of document bytes; Stockpot's target is at least 1000 MB/s.

import StockpotCore
import Foundation
import StockpotJSON

struct JSONExtractWorkload: Workload {
    let name = "json.extract"
    let summary = "5 index paths from raw bytes: JSONFieldExtractor vs JSONSerialization + projection (MB/s)"

    /// The absolute throughput Stockpot's extractor is meant to reach.
    static let targetMegabytesPerSecond = 1000.0

    func run(in context: BenchContext) throws -> BenchResult {
        let corpus = context.corpus
        let documents = context.foundationDocuments
        let runs = context.options.runs
        let specs = AccountSoup.extractedFields
        let extractor = JSONFieldExtractor(fields: specs.map(\.indexField))

        try crossCheck(extractor: extractor, specs: specs, in: context)

        let stockpot = try Stopwatch.medianSeconds(runs: runs) {
            var checksum: UInt64 = 0
            var values: [IndexValue] = []  // reused across documents, as ingestion does
            try corpus.forEachDocument { bytes in
                try extractor.extractIndexValues(from: bytes, into: &values)
                for value in values {
                    checksum &+= Checksum.of(value)
                }
            }
            Sink.consume(checksum)
        }
        let foundation = try Stopwatch.medianSeconds(runs: runs) {
            var checksum: UInt64 = 0
            for document in documents {
                let tree = try JSONSerialization.jsonObject(with: document)
                for spec in specs {
                    checksum &+= Checksum.of(FoundationProjection.indexValue(of: tree, spec: spec))
                }
            }
            Sink.consume(checksum)
        }
        let figure = context.corpusMegabytes / stockpot
        let target = Self.targetMegabytesPerSecond
        return BenchResult(
            workload: name, unit: .megabytesPerSecond,
            stockpot: figure, baseline: context.corpusMegabytes / foundation,
            baselineName: "Foundation",
            note: "target >= \(Int(target)) MB/s: " + (figure >= target ? "met" : "not met"))
    }

    /// Warns on standard error when both sides disagree on a value in the first documents,
    /// so a fast but wrong extractor does not go unnoticed.
    private func crossCheck(
        extractor: JSONFieldExtractor, specs: [SoupIndexSpec], in context: BenchContext
    ) throws {
        let corpus = context.corpus
        let documents = context.foundationDocuments
        var mismatches = 0
        for index in 0..<min(200, corpus.count) {
            let ours = try corpus.document(index).withUnsafeBytes { bytes throws(JSONError) in
                try extractor.indexValues(in: bytes)
            }
            let tree = try JSONSerialization.jsonObject(with: documents[index])
            for (position, spec) in specs.enumerated() {
                let theirs = FoundationProjection.indexValue(of: tree, spec: spec)
                if !Self.same(ours[position], theirs) {
                    mismatches += 1
                    if mismatches <= 3 {
                        context.progress("json.extract: document \(index) \(spec.path): \(ours[position]) vs Foundation \(theirs)")
                    }
                }
            }
        }
        if mismatches > 0 { context.progress("json.extract: WARNING \(mismatches) values differ from Foundation") }
    }

    private static func same(_ value: IndexValue, _ other: SQLiteValue) -> Bool {
        switch (value, other) {
        case (.null, .null): true
        case (.integer(let a), .integer(let b)): a == b
        case (.double(let a), .real(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        default: false
        }
    }
}
