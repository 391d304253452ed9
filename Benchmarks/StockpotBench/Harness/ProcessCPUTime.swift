// CPU seconds this process has used (user plus system, all threads), from getrusage(2): a
// figure that other load on a shared machine moves much less than wall-clock time.

import Glibc

/// Readings of the process's CPU time.
enum ProcessCPUTime {
    /// User plus system seconds used so far by every thread of the process.
    static func seconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// Wall-clock and CPU seconds of `body`.
    static func measure(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
        let cpuStart = seconds()
        let wall = Stopwatch.seconds(try ContinuousClock().measure(body))
        return (wall, seconds() - cpuStart)
    }
}
