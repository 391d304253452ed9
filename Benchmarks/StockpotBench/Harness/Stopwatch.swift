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

    /// The median of up to `runs` samples of `body`, which does its own setup and returns the
    /// seconds of just the part it measures (setup and teardown stay outside the figure).
    /// One untimed warm-up first when `warmUp` is true; fewer runs when they would pass
    /// ``budgetSeconds`` of measured time.
    static func medianOfMeasured(
        runs: Int, warmUp: Bool = true, _ body: () throws -> Double
    ) rethrows -> Double {
        var samples = [Double]()
        var first: Double?
        if warmUp { first = try body() }
        while samples.count < runs {
            let sample = try body()
            samples.append(sample)
            let reference = first ?? sample
            if reference > 0, Double(samples.count + 1) * reference > budgetSeconds { break }
        }
        return median(samples)
    }

    /// The medians of up to `runs` samples of each of two bodies taken in turns (a, b; then b,
    /// a; ...), after one untimed warm-up of each, so that a machine whose speed drifts over a
    /// run (here by up to half) slows both sides alike rather than whichever ran later. Each
    /// body does its own setup and returns the seconds of the part it measures. Fewer turns
    /// when they would pass three times ``budgetSeconds`` of measured time in all (at least
    /// two turns when the warm-up fits that budget: an ingest's slow baseline side gets as
    /// many runs as a lone run of it would).
    static func mediansInTurns(
        runs: Int, _ first: () throws -> Double, _ second: () throws -> Double
    ) rethrows -> (first: Double, second: Double, turns: Int) {
        let reference = try first() + second()
        var (firsts, seconds) = ([Double](), [Double]())
        while firsts.count < runs {
            if SideOrder.sides(turn: firsts.count)[0] == 0 {
                firsts.append(try first())
                seconds.append(try second())
            } else {
                seconds.append(try second())
                firsts.append(try first())
            }
            if reference > 0, Double(firsts.count + 1) * reference > 3 * budgetSeconds { break }
        }
        return (median(firsts), median(seconds), firsts.count)
    }

    /// The median of `samples` (the mean of the middle two for an even count); 0 when empty.
    static func median<Sample: BinaryFloatingPoint>(_ samples: [Sample]) -> Sample {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The sample at `fraction` (0...1) of the sorted samples, nearest rank; 0 for none.
    static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    /// Seconds in `duration`, as a double.
    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
