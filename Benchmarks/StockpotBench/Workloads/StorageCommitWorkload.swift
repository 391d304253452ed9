// storage.commit: single-put commits with durability .full, each timed, against pwrite of
// 1 KB plus fsync of a file in the same directory. Median us/op; ratio = fsync / commit
// (at least 0.91 is "within 10% of fsync", the target). The note adds the engine's own floor:
// a 1 KB pwrite into preallocated space plus fdatasync, which is how the log appends.

import Foundation  // String(format:)
import StockpotStorage

struct StorageCommitWorkload: Workload {
    let name = "storage.commit"
    let summary = "durable single-put commit latency, durability .full vs pwrite + fsync (us/op)"

    /// Timed commits per side.
    static let commitCount = 500
    /// The sides alternate in chunks of this many, so drift in the disk's speed hits both.
    static let chunk = 50
    /// Untimed commits per side first.
    static let warmUpCount = 20
    /// Within 10% of fsync: fsync / commit at least 1 / 1.1.
    static let targetRatio = 1 / 1.1

    func run(in context: BenchContext) throws -> BenchResult {
        let values = context.storageValues
        let directory = try ScratchDirectory(label: "commit")
        defer { directory.remove() }
        let engine = try StorageEngine.open(directory: directory.path)  // durability .full
        defer { try? engine.close() }
        let probe = try FsyncProbe(path: directory.file("fsync-probe"))
        let floor = try PlainLogWriters(path: directory.file("fdatasync-probe"))

        var counter: UInt64 = 0
        func commit() throws {
            counter += 1
            var batch = WriteBatch()
            batch.put(StorageKeys.key(counter), values[Int(counter % UInt64(values.count))])
            try engine.write(batch)
        }
        for _ in 0..<Self.warmUpCount {
            try commit()
            try probe.appendAndSync()
            try floor.appendAndSync()
        }
        var commits = [Double]()
        var syncs = [Double]()
        var floors = [Double]()
        while commits.count < Self.commitCount {
            for _ in 0..<min(Self.chunk, Self.commitCount - commits.count) {
                let start = MonotonicClock.nanoseconds()
                try commit()
                commits.append(Double(MonotonicClock.nanoseconds() &- start) / 1000)
            }
            for _ in 0..<min(Self.chunk, Self.commitCount - syncs.count) {
                let start = MonotonicClock.nanoseconds()
                try probe.appendAndSync()
                syncs.append(Double(MonotonicClock.nanoseconds() &- start) / 1000)
            }
            for _ in 0..<min(Self.chunk, Self.commitCount - floors.count) {
                let start = MonotonicClock.nanoseconds()
                try floor.appendAndSync()
                floors.append(Double(MonotonicClock.nanoseconds() &- start) / 1000)
            }
        }
        let commit = Stopwatch.median(commits)
        let sync = Stopwatch.median(syncs)
        let mean = { (samples: [Double]) in samples.reduce(0, +) / Double(samples.count) }
        let ratio = sync / commit
        return BenchResult(
            workload: name, unit: .microsecondsPerOperation, stockpot: commit, baseline: sync,
            baselineName: "pwrite + fsync",
            note: StorageTarget.note("within 10% of fsync", met: ratio >= Self.targetRatio)
                + String(format: "; means %.0f vs %.0f us, %ld commits", mean(commits), mean(syncs), commits.count)
                + String(
                    format: "; preallocated pwrite + fdatasync (the log's floor) %.1f us, commit / floor %.2f",
                    Stopwatch.median(floors), commit / Stopwatch.median(floors)))
    }
}
