// Zipf-distributed ranks for skewed key choices: rank k of n (0-based) is drawn with
// probability proportional to 1 / (k + 1)^s, by a binary search of the cumulative weights.

import Foundation  // pow
import StockpotTools

/// Draws ranks `0..<count` with Zipf frequencies of exponent `exponent`.
struct ZipfDistribution {
    /// The exponent the benchmark's skewed variants use.
    static let defaultExponent = 0.99

    /// Cumulative weights, normalised so that the last is 1.
    private let cumulative: [Double]

    /// A distribution over `count` ranks (at least one).
    init(count: Int, exponent: Double = defaultExponent) {
        var running = 0.0
        var weights = [Double]()
        weights.reserveCapacity(max(1, count))
        for rank in 0..<max(1, count) {
            running += 1 / pow(Double(rank + 1), exponent)
            weights.append(running)
        }
        cumulative = weights.map { $0 / running }
    }

    /// A rank drawn with `random`.
    func next(_ random: inout SeededRandom) -> Int {
        let target = Double(random.below(1 << 53)) / Double(1 << 53)
        var (low, high) = (0, cumulative.count - 1)
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < target { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
