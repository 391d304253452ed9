// A Zipf-distributed sampler over ranks 0..<n: rank k is drawn with weight 1 / (k+1)^s,
// by binary search over a precomputed cumulative table.

import Foundation  // pow

/// Draws ranks whose frequencies follow Zipf's law, as word frequencies in prose do.
package struct Zipf: Sendable {
    /// Cumulative weights, normalised so the last entry is 1.
    private let cumulative: [Double]

    /// Creates a sampler over `count` ranks with exponent `exponent` (about 1 for prose).
    package init(count: Int, exponent: Double = 1.0) {
        precondition(count > 0, "a Zipf distribution needs at least one rank")
        var table = [Double]()
        table.reserveCapacity(count)
        var total = 0.0
        for rank in 1...count {
            total += 1.0 / pow(Double(rank), exponent)
            table.append(total)
        }
        cumulative = table.map { $0 / total }
    }

    /// The number of ranks.
    package var count: Int { cumulative.count }

    /// A rank in `0..<count`; rank 0 is the most frequent.
    package func sample(using random: inout SeededRandom) -> Int {
        let u = random.unit()
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] > u { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
