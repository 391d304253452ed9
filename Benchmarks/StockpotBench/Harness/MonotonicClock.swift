// A raw monotonic clock for timing single operations: one clock_gettime(CLOCK_MONOTONIC)
// call (a vDSO call, no system call), without Duration arithmetic in the timed path.

import Glibc

/// Nanosecond readings of the monotonic clock.
enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point.
    @inline(__always)
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// The median cost of one reading, in nanoseconds: what timing one operation adds to it.
    static func readingOverhead(samples: Int = 100_000) -> Double {
        var durations = [Double]()
        durations.reserveCapacity(samples)
        for _ in 0..<samples {
            let start = nanoseconds()
            let end = nanoseconds()
            durations.append(Double(end &- start))
        }
        return Stopwatch.median(durations)
    }
}
