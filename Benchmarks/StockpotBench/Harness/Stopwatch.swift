// Times a body of work: one warm-up run, then up to R timed runs; reports the median, which
// is steadier than the best on a shared machine. Slow bodies get fewer runs (time budget).

/// Repeats work and reports a representative duration.
enum Stopwatch {
    /// Timed runs stop early once they have used this many seconds (at least one run).
    static let budgetSeconds = 15.0

    /// The median wall-clock seconds of up to `runs` timed runs of `body`, after one untimed
    /// warm-up. When the warm-up shows the runs would exceed ``budgetSeconds``, fewer are made.
    static func medianSeconds(runs: Int, _ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let warmup = seconds(try clock.measure(body))
        let affordable = warmup > 0 ? Int(budgetSeconds / warmup) : runs
        let count = max(1, min(runs, affordable))
        var samples = [Double]()
        samples.reserveCapacity(count)
        for _ in 0..<count {
            samples.append(seconds(try clock.measure(body)))
        }
        samples.sort()
        let middle = samples.count / 2
        return samples.count % 2 == 1 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2
    }

    /// Seconds in `duration`, as a double.
    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
