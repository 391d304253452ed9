// Timing two sides' calls one by one, interleaved in blocks: each side runs a block of calls in
// a row, then the other side runs the same block, the order of the two switching every block.
// The query, sql and store.get workloads use it (docs/benchmarks.md, "Method").
//
// Why blocks and not call by call: a call that follows the other side's call finds the caches
// as the other side left them. After a SQLite full-table scan (100 MB) that is nothing of
// Stockpot's; alternating call by call made half of Stockpot's calls cold and half warm, and
// the median of such a mix lands on either population from one run to the next (like-prefix:
// 84-107 us after SQLite, 25-36 us after itself). In blocks, each side mostly runs after
// itself, as it would in an application that uses it, and machine-speed drift still reaches
// both sides within a block or two.

import Foundation  // String(format:)

/// The per-call times of both sides, and which calls ran right after the other side's block.
struct BlockTimings {
    /// Microseconds per call, in call order.
    var stockpot: [Double] = []
    var baseline: [Double] = []
    /// Microseconds of the calls that ran first after a block of the other side's.
    var stockpotAfterOther: [Double] = []
    var baselineAfterOther: [Double] = []
    /// The sum of every timed call's result (rows or counts), both sides.
    var results = 0
    /// The sum of the untimed warm-up calls' results, both sides.
    var warmUpResults = 0
    /// Warm-up calls made on each side before timing.
    var warmUpCount = 0

    /// Calls timed on each side.
    var timedCount: Int { stockpot.count }
}

enum BlockInterleaving {
    /// Calls per block.
    static let blockSize = 20

    /// Both sides' timed calls together should take at most this long (`--timed-seconds`
    /// sets it; main sets it once before any workload runs, on the one benchmark thread).
    nonisolated(unsafe) static var timedSecondsBudget = 30.0

    /// Runs calls `0..<warmUps` on both sides untimed (call by call), then `beforeTiming`,
    /// then times as many of `0..<calls` as ``timedCount(calls:secondsPerCall:minimum:)``
    /// allows, in blocks (``time(count:stockpot:baseline:)``).
    static func warmUpAndTime(
        calls: Int, warmUps: Int, minimumTimed: Int, beforeTiming: () throws -> Void = {},
        beforeCall: ((_ side: Int, _ call: Int) throws -> Void)? = nil,
        stockpot: (Int) throws -> Int, baseline: (Int) throws -> Int
    ) rethrows -> BlockTimings {
        let warmUpCount = min(warmUps, calls)
        var warmUpResults = 0
        let start = MonotonicClock.nanoseconds()
        for call in 0..<warmUpCount {
            try beforeCall?(0, call)
            warmUpResults += try stockpot(call)
            try beforeCall?(1, call)
            warmUpResults += try baseline(call)
        }
        let secondsPerCall = Double(MonotonicClock.nanoseconds() &- start) / 1e9 / Double(max(1, warmUpCount))
        try beforeTiming()
        var timings = try time(
            count: timedCount(calls: calls, secondsPerCall: secondsPerCall, minimum: minimumTimed),
            beforeCall: beforeCall, stockpot: stockpot, baseline: baseline)
        (timings.warmUpResults, timings.warmUpCount) = (warmUpResults, warmUpCount)
        return timings
    }

    /// How many of `calls` calls to time when one (both sides) takes `secondsPerCall`: all of
    /// them when they fit ``timedSecondsBudget``, else as many as fit, but at least `minimum`.
    /// The same calls are timed at every corpus size unless the baseline's side gets too slow
    /// (a full-table scan at 1,000,000 entries), so that caches warmed by earlier calls (the
    /// document cache, Smart SQL's column cache) are as warm at every size.
    static func timedCount(calls: Int, secondsPerCall: Double, minimum: Int) -> Int {
        guard secondsPerCall > 0 else { return calls }
        let fitting = Int(timedSecondsBudget / secondsPerCall)
        return min(calls, max(fitting, min(calls, minimum)))
    }

    /// Times calls `0..<count` on both sides, each call alone with the monotonic clock, in
    /// blocks of `blockSize` (``blockSize`` unless given): the process's first side
    /// (``SideOrder``) first in even blocks, the other in odd ones, so that each side starts
    /// half of its blocks right after the other side. `beforeCall`, when given, runs untimed
    /// before each call with the side (0 Stockpot, 1 the baseline) and the call's number.
    static func time(
        count: Int, blockSize: Int = blockSize, beforeCall: ((_ side: Int, _ call: Int) throws -> Void)? = nil,
        stockpot: (Int) throws -> Int, baseline: (Int) throws -> Int
    ) rethrows -> BlockTimings {
        var timings = BlockTimings()
        timings.stockpot.reserveCapacity(count)
        timings.baseline.reserveCapacity(count)
        var lastSide = -1
        for (block, start) in stride(from: 0, to: count, by: blockSize).enumerated() {
            let calls = start..<min(start + blockSize, count)
            for side in SideOrder.sides(turn: block) {
                let followsOther = lastSide >= 0 && lastSide != side
                lastSide = side
                for call in calls {
                    try beforeCall?(side, call)
                    let begin = MonotonicClock.nanoseconds()
                    let result = side == 0 ? try stockpot(call) : try baseline(call)
                    let elapsed = Double(MonotonicClock.nanoseconds() &- begin) / 1000
                    timings.results += result
                    if side == 0 { timings.stockpot.append(elapsed) } else { timings.baseline.append(elapsed) }
                    if followsOther && call == calls.lowerBound {
                        if side == 0 { timings.stockpotAfterOther.append(elapsed) } else { timings.baselineAfterOther.append(elapsed) }
                    }
                }
            }
        }
        return timings
    }

    /// The medians of the calls that ran right after the other side, for a workload's note.
    static func afterOtherNote(_ timings: BlockTimings) -> String {
        guard !timings.stockpotAfterOther.isEmpty, !timings.baselineAfterOther.isEmpty else { return "" }
        return String(
            format: "; first call after the other side's block, median %.1f vs %.1f us",
            Stopwatch.median(timings.stockpotAfterOther), Stopwatch.median(timings.baselineAfterOther))
    }
}
