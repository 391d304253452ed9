// storage.group-commit: durable commits per second (one ~1 KB put per batch, durability
// .full) with two committer threads at once, against one committer on the same store. The
// ratio two / one shows how many commits share an fsync. Target: at least 1.7x. Each round
// also times the same with plain writer threads and no Stockpot code (`PlainLogWriters`), so
// that the note shows what this disk gives two concurrent syncs by itself in the same minutes
// (its flush latency wanders between runs).

import Dispatch
import Foundation  // String(format:)
import StockpotStorage
import Synchronization

struct StorageGroupCommitWorkload: Workload {
    let name = "storage.group-commit"
    let summary = "durable commits/s with 2 committer threads vs 1, durability .full (commits/s)"

    /// Commits each committer makes per round.
    static let commitsPerCommitter = 200
    /// Rounds (one committer, then two, then the plain writers), whatever `--runs` says: this
    /// disk's flush latency drifts from one tenth of a second to the next, so the medians need
    /// more rounds than other workloads' runs. A round takes about a quarter of a second at
    /// 200 us per fsync (seconds on a slow disk).
    static let rounds = 9
    static let targetRatio = 1.7

    func run(in context: BenchContext) throws -> BenchResult {
        let values = context.storageValues
        let directory = try ScratchDirectory(label: "group-commit")
        defer { directory.remove() }
        let engine = try StorageEngine.open(directory: directory.path)  // durability .full
        defer { try? engine.close() }
        let plain = try PlainLogWriters(path: directory.file("plain-log"))

        var nextCounter: UInt64 = 1
        _ = try commitsPerSecond(engine: engine, committers: 1, commits: 20, firstCounter: &nextCounter, values: values)
        var one = [Double]()
        var two = [Double]()
        var syncs = (one: 0, two: 0)
        var plainRatios = [Double]()
        for _ in 0..<Self.rounds {
            var before = try engine.statistics().commitSyncs
            one.append(
                try commitsPerSecond(
                    engine: engine, committers: 1, commits: Self.commitsPerCommitter, firstCounter: &nextCounter, values: values))
            var after = try engine.statistics().commitSyncs
            syncs.one += after - before
            before = after
            two.append(
                try commitsPerSecond(
                    engine: engine, committers: 2, commits: Self.commitsPerCommitter, firstCounter: &nextCounter, values: values))
            after = try engine.statistics().commitSyncs
            syncs.two += after - before
            let plainOne = try plain.appendsPerSecond(threads: 1, appends: Self.commitsPerCommitter)
            plainRatios.append(try plain.appendsPerSecond(threads: 2, appends: Self.commitsPerCommitter) / plainOne)
        }
        let single = Stopwatch.median(one)
        let double = Stopwatch.median(two)
        return BenchResult(
            workload: name, unit: .commitsPerSecond, stockpot: double, baseline: single,
            baselineName: "1 committer",
            note: StorageTarget.note(">= \(Self.targetRatio)x", met: double / single >= Self.targetRatio)
                + String(format: "; %ld commits per committer per round, %ld rounds", Self.commitsPerCommitter, one.count)
                + String(
                    format: "; commits per sync %.2f with 1 committer, %.2f with 2",
                    Double(Self.commitsPerCommitter * one.count) / Double(max(syncs.one, 1)),
                    Double(2 * Self.commitsPerCommitter * two.count) / Double(max(syncs.two, 1)))
                + "; per round \(Self.ratios(two, over: one)); plain pwrite+fdatasync writers, no Stockpot, 2 vs 1:"
                + String(format: " %.2fx median, per round ", Stopwatch.median(plainRatios))
                + plainRatios.map { String(format: "%.2f", $0) }.joined(separator: ", "))
    }

    /// The ratios `numerators[i] / denominators[i]`, two decimals each, comma-separated.
    private static func ratios(_ numerators: [Double], over denominators: [Double]) -> String {
        zip(numerators, denominators).map { String(format: "%.2f", $0 / $1) }.joined(separator: ", ")
    }

    /// Runs `committers` threads, each making `commits` single-put commits on keys of its own,
    /// and returns all their commits divided by the wall-clock seconds until the last is done.
    private func commitsPerSecond(
        engine: StorageEngine, committers: Int, commits: Int, firstCounter: inout UInt64, values: [[UInt8]]
    ) throws -> Double {
        let base = firstCounter
        firstCounter += UInt64(committers * commits)
        let failures = FailureList()
        let seconds = StorageLoad.seconds {
            DispatchQueue.concurrentPerform(iterations: committers) { committer in
                let start = base + UInt64(committer * commits)
                for counter in start..<start + UInt64(commits) {
                    var batch = WriteBatch()
                    batch.put(StorageKeys.key(counter), values[Int(counter % UInt64(values.count))])
                    do {
                        try engine.write(batch)
                    } catch {
                        failures.append("\(error)")
                        return
                    }
                }
            }
        }
        if let failure = failures.first {
            throw BenchFailure("storage.group-commit: a commit failed: \(failure)")
        }
        return Double(committers * commits) / seconds
    }
}

/// Errors the committer threads report. `Sendable` through its mutex.
private final class FailureList: Sendable {
    private let messages = Mutex<[String]>([])

    func append(_ message: String) {
        messages.withLock { $0.append(message) }
    }

    var first: String? { messages.withLock { $0.first } }
}
