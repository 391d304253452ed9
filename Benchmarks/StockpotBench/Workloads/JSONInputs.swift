// Inputs the JSON workloads share, made once per run outside any timing: each document as
// Foundation `Data`, and the corpus parsed into StockpotJSON and into Foundation trees.

import Foundation
import StockpotJSON

extension BenchContext {
    /// Each document as its own `Data`, so the Foundation side pays no copy while timed.
    var foundationDocuments: [Data] {
        cached("foundationDocuments") {
            let corpus = corpus
            return corpus.ranges.map { Data(corpus.bytes[$0]) }
        }
    }

    /// Each document parsed by ``JSONReader``.
    func stockpotTrees() throws -> [JSONValue] {
        try cached("stockpotTrees") {
            var trees = [JSONValue]()
            trees.reserveCapacity(corpus.count)
            try corpus.forEachDocument { bytes in trees.append(try JSONReader.parse(bytes)) }
            return trees
        }
    }

    /// Each document parsed by `JSONSerialization`.
    func foundationTrees() throws -> [Any] {
        try cached("foundationTrees") {
            try foundationDocuments.map { try JSONSerialization.jsonObject(with: $0) }
        }
    }
}
