// The floor of a Stockpot commit, with no Stockpot code: ~1 KB blocks appended to a log file
// with pwrite(2) into space preallocated 1 MiB at a time with posix_fallocate(3), each followed
// by fdatasync(2), the way a commit reaches the disk (docs/durability.md, "Commit a batch").
// storage.commit times single appends against a commit; storage.group-commit runs two threads
// of them with no coordination at all, so what two such writers get over one is what this disk
// gives concurrent syncs by itself.

import Dispatch
import Synchronization

/// A log file that one or more threads append blocks to, each append synced on its own.
final class PlainLogWriters: Sendable {
    private let file: BlockLogFile
    /// The next append's offset and the bytes preallocated so far.
    private let tail = Mutex<(end: Int, allocated: Int)>((0, 0))

    /// Creates (truncating) the file at `path`; each append writes `blockBytes` bytes.
    init(path: String, blockBytes: Int = 1024) throws {
        file = try BlockLogFile(path: path, blockBytes: blockBytes)
    }

    /// Appends and syncs `appends` blocks from each of `threads` threads at once; the appends
    /// per second of all of them together.
    func appendsPerSecond(threads: Int, appends: Int) throws -> Double {
        let failures = Mutex<[String]>([])
        let seconds = StorageLoad.seconds {
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                for _ in 0..<appends {
                    do {
                        try appendAndSync()
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                        return
                    }
                }
            }
        }
        if let failure = failures.withLock({ $0.first }) { throw BenchFailure(failure) }
        return Double(threads * appends) / seconds
    }

    /// One append: a place at the end (preallocating 1 MiB more when needed, as the engine's
    /// log does), the write, then the sync, outside any lock. Safe from any thread.
    func appendAndSync() throws {
        let offset = try tail.withLock { tail throws -> Int in
            let offset = tail.end
            tail.end += file.blockBytes
            if tail.end > tail.allocated {
                let size = (tail.end / (1 << 20) + 1) << 20
                try file.preallocate(size)
                tail.allocated = size
            }
            return offset
        }
        try file.writeBlock(at: offset)
        try file.sync(dataOnly: true)
    }
}
