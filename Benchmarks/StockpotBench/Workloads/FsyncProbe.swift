// The machine's durable-append latency: append a block to a file with pwrite(2), then
// fsync(2), called straight through Glibc. (The engine's own way, into preallocated space with
// fdatasync, is `PlainLogWriters`.)

import Glibc

/// A file that grows by one block per ``appendAndSync()``. Use from one thread at a time.
final class FsyncProbe {
    private let descriptor: Int32
    private let path: String
    private let block: [UInt8]
    private var end = 0

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

    /// Writes one block at the end of the file and fsyncs it.
    func appendAndSync() throws {
        let written = block.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(end)) }
        guard written == block.count else {
            throw BenchFailure("pwrite \(path): \(written < 0 ? String(cString: strerror(errno)) : "short write")")
        }
        end += written
        guard fsync(descriptor) == 0 else {
            throw BenchFailure("fsync \(path): \(String(cString: strerror(errno)))")
        }
    }
}
