// Which side goes first wherever two sides take turns in one process. The report runs every
// workload in several processes and flips this between them, so that neither side always
// runs first after a load or a warm-up.

/// The order of the sides in a process.
enum SideOrder {
    /// Set once by main from `--baseline-first`, before any workload runs, and only read
    /// after that; the benchmark's workloads run on one thread.
    nonisolated(unsafe) static var baselineFirst = false

    /// `[0, 1]` (Stockpot, then the baseline) or `[1, 0]`, for a turn numbered `turn`:
    /// even turns start with the process's first side, odd turns with the other.
    static func sides(turn: Int) -> [Int] {
        (turn % 2 == 0) != baselineFirst ? [0, 1] : [1, 0]
    }
}
