// json.parse: every corpus document from UTF-8 bytes to a value tree, JSONReader.parse
// against Foundation's JSONSerialization.jsonObject(with:). MB/s of document bytes.

import StockpotCore
import Foundation
import StockpotJSON

struct JSONParseWorkload: Workload {
    let name = "json.parse"
    let summary = "bytes -> value tree: JSONReader.parse vs JSONSerialization.jsonObject (MB/s)"

    func run(in context: BenchContext) throws -> BenchResult {
        let corpus = context.corpus
        let documents = context.foundationDocuments
        let runs = context.options.runs

        let stockpot = try Stopwatch.medianSeconds(runs: runs) {
            var checksum: UInt64 = 0
            try corpus.forEachDocument { bytes in
                checksum &+= Checksum.of(try JSONReader.parse(bytes))
            }
            Sink.consume(checksum)
        }
        let foundation = try Stopwatch.medianSeconds(runs: runs) {
            var checksum: UInt64 = 0
            for document in documents {
                let tree = try JSONSerialization.jsonObject(with: document)
                checksum &+= UInt64((tree as? [String: Any])?.count ?? 1)
            }
            Sink.consume(checksum)
        }
        return BenchResult(
            workload: name, unit: .megabytesPerSecond,
            stockpot: context.corpusMegabytes / stockpot, baseline: context.corpusMegabytes / foundation,
            baselineName: "Foundation")
    }
}
