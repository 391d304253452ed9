// One workload's outcome: the Stockpot and baseline figures in one unit, and the ratio,
// which is always oriented so that a ratio above 1 means Stockpot did better, plus what the
// report keeps beside it (the target, a CPU-time ratio, named extra figures).

/// What a figure measures, and which direction is better.
enum BenchUnit: String {
    /// Megabytes (10^6 bytes) of document text per second.
    case megabytesPerSecond = "MB/s"
    /// Operations per second.
    case operationsPerSecond = "ops/s"
    /// Durable commits per second.
    case commitsPerSecond = "commits/s"
    /// Store entries per second.
    case entriesPerSecond = "entries/s"
    /// Bytes of memory per store entry.
    case bytesPerEntry = "B/entry"
    /// Microseconds per operation.
    case microsecondsPerOperation = "us/op"
    /// Milliseconds for the whole workload.
    case milliseconds = "ms"
    /// Megabytes (10^6 bytes) of memory.
    case megabytes = "MB"

    /// `true` for throughput units, `false` for latency units.
    var higherIsBetter: Bool {
        switch self {
        case .megabytesPerSecond, .operationsPerSecond, .commitsPerSecond, .entriesPerSecond: true
        case .microsecondsPerOperation, .milliseconds, .bytesPerEntry, .megabytes: false
        }
    }
}

/// The line a workload prints.
struct BenchResult {
    var workload: String
    var unit: BenchUnit
    var stockpot: Double
    var baseline: Double
    var baselineName: String
    /// Extra words for the text format only (for example a target the figure must meet).
    var note: String? = nil
    /// The ratio this row must reach (judged by the report on the median over processes);
    /// `nil` for a row shown for comparison only.
    var target: Double? = nil
    /// Baseline CPU seconds / Stockpot CPU seconds, for a workload that may use more than
    /// one core on either side.
    var cpuRatio: Double? = nil
    /// Named figures kept in the results file beside the two main ones (percentiles, memory
    /// given to a peer, space amplification), in the order they were added.
    var extras: [(name: String, value: Double)] = []

    /// Above 1 when Stockpot is better: stockpot/baseline for throughput,
    /// baseline/stockpot for latency.
    var ratio: Double {
        unit.higherIsBetter ? stockpot / baseline : baseline / stockpot
    }
}
