// The machine's durable-append latency: append a block to a file with pwrite(2), then
// fsync(2), called straight through Glibc. Optionally the way the engine's log appends
// (docs/durability.md, "Commit a batch"): into space preallocated 1 MiB at a time with
// posix_fallocate(3), then fdatasync(2), the floor of a Stockpot commit.

import Glibc

/// A file that grows by one block per ``appendAndSync()``. Use from one thread at a time.
final class FsyncProbe {
    private let descriptor: Int32
    private let path: String
    private let block: [UInt8]
    private var end = 0
    private let preallocated: Bool
    private var allocated = 0

    /// Creates (truncating) the file at `path`; each append writes `blockBytes` bytes, into
    /// preallocated space and with fdatasync when `preallocated`.
    init(path: String, blockBytes: Int = 1024, preallocated: Bool = false) throws {
        self.preallocated = preallocated
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

    /// Writes one block at the end of the file and fsyncs (or fdatasyncs) it.
    func appendAndSync() throws {
        if preallocated, end + block.count > allocated {
            let size = ((end + block.count) / (1 << 20) + 1) << 20
            let result = posix_fallocate(descriptor, 0, off_t(size))
            guard result == 0 else { throw BenchFailure("posix_fallocate \(path): \(String(cString: strerror(result)))") }
            allocated = size
        }
        let written = block.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(end)) }
        guard written == block.count else {
            throw BenchFailure("pwrite \(path): \(written < 0 ? String(cString: strerror(errno)) : "short write")")
        }
        end += written
        guard (preallocated ? fdatasync(descriptor) : fsync(descriptor)) == 0 else {
            throw BenchFailure("fsync \(path): \(String(cString: strerror(errno)))")
        }
    }
}
