// The floor of a Stockpot commit, with no Stockpot code: ~1 KB blocks appended to a log file
// with pwrite(2) into space preallocated 1 MiB at a time with posix_fallocate(3), each followed
// by fdatasync(2), the way a commit reaches the disk (docs/durability.md, "Commit a batch").
// storage.commit times single appends against a commit; storage.group-commit runs two threads
// of them with no coordination at all, so what two such writers get over one is what this disk
// gives concurrent syncs by itself.

import Dispatch
import Glibc
import Synchronization

/// A log file that one or more threads append blocks to, each append synced on its own.
final class PlainLogWriters: Sendable {
    private let descriptor: Int32
    private let path: String
    private let block: [UInt8]
    /// The next append's offset and the bytes preallocated so far.
    private let tail = Mutex<(end: Int, allocated: Int)>((0, 0))

    /// Creates (truncating) the file at `path`; each append writes `blockBytes` bytes.
    init(path: String, blockBytes: Int = 1024) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw BenchFailure("open \(path): \(String(cString: strerror(errno)))")
        }
        self.path = path
        block = (0..<blockBytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    }

    deinit {
        close(descriptor)
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
            tail.end += block.count
            if tail.end > tail.allocated {
                let size = (tail.end / (1 << 20) + 1) << 20
                let result = posix_fallocate(descriptor, 0, off_t(size))
                guard result == 0 else { throw BenchFailure("posix_fallocate \(path): \(String(cString: strerror(result)))") }
                tail.allocated = size
            }
            return offset
        }
        let written = block.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        guard written == block.count else {
            throw BenchFailure("pwrite \(path): \(written < 0 ? String(cString: strerror(errno)) : "short write")")
        }
        guard fdatasync(descriptor) == 0 else {
            throw BenchFailure("fdatasync \(path): \(String(cString: strerror(errno)))")
        }
    }
}
