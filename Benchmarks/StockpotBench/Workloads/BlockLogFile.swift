// A bench log file written one fixed block at a time with plain system calls: what
// FsyncProbe and PlainLogWriters share (the file, the block, the checked write and sync).

import Glibc

/// A file (created or truncated) that takes writes of one fixed block at given offsets.
/// Its calls are safe from any thread; where each block goes is the caller's business.
final class BlockLogFile: Sendable {
    private let path: String
    private let descriptor: Int32
    private let block: [UInt8]

    /// The bytes each write adds.
    var blockBytes: Int { block.count }

    /// Creates (truncating) the file at `path`; each write writes `blockBytes` bytes.
    init(path: String, blockBytes: Int) throws {
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

    /// Writes the block at `offset` with pwrite(2); a short write is an error.
    func writeBlock(at offset: Int) throws {
        let written = block.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        guard written == block.count else {
            throw BenchFailure("pwrite \(path): \(written < 0 ? String(cString: strerror(errno)) : "short write")")
        }
    }

    /// Makes the file's first `bytes` bytes allocated on disk (posix_fallocate(3)).
    func preallocate(_ bytes: Int) throws {
        let result = posix_fallocate(descriptor, 0, off_t(bytes))
        guard result == 0 else { throw BenchFailure("posix_fallocate \(path): \(String(cString: strerror(result)))") }
    }

    /// fsync(2), or fdatasync(2) when `dataOnly`.
    func sync(dataOnly: Bool) throws {
        guard (dataOnly ? fdatasync(descriptor) : fsync(descriptor)) == 0 else {
            throw BenchFailure("\(dataOnly ? "fdatasync" : "fsync") \(path): \(String(cString: strerror(errno)))")
        }
    }
}
