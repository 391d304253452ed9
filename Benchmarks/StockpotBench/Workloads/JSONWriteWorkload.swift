// json.write: every corpus document from a value tree back to compact UTF-8 JSON,
// JSONWriter.write against JSONSerialization.data(withJSONObject:) on Foundation's own trees.
// MB/s of (input) document bytes for both sides.

import Foundation
import StockpotJSON

struct JSONWriteWorkload: Workload {
    let name = "json.write"
    let summary = "value tree -> bytes: JSONWriter.write vs JSONSerialization.data (MB/s)"

    func run(in context: BenchContext) throws -> BenchResult {
        let stockpotTrees = try context.stockpotTrees()
        let foundationTrees = try context.foundationTrees()
        let runs = context.options.runs

        let stockpot = Stopwatch.medianSeconds(runs: runs) {
            var checksum: UInt64 = 0
            for tree in stockpotTrees {
                checksum &+= UInt64(JSONWriter.write(tree).count)
            }
            Sink.consume(checksum)
        }
        let foundation = try Stopwatch.medianSeconds(runs: runs) {
            var checksum: UInt64 = 0
            for tree in foundationTrees {
                checksum &+= UInt64(try JSONSerialization.data(withJSONObject: tree).count)
            }
            Sink.consume(checksum)
        }
        return BenchResult(
            workload: name, unit: .megabytesPerSecond,
            stockpot: context.corpusMegabytes / stockpot, baseline: context.corpusMegabytes / foundation,
            baselineName: "Foundation")
    }
}
