// The machine's durable-append latency: append a block to a file with pwrite(2), then
// fsync(2), called straight through Glibc. (The engine's own way, into preallocated space with
// fdatasync, is `PlainLogWriters`.)

/// A file that grows by one block per ``appendAndSync()``. Use from one thread at a time.
final class FsyncProbe {
    private let file: BlockLogFile
    private var end = 0

    /// Creates (truncating) the file at `path`; each append writes `blockBytes` bytes.
    init(path: String, blockBytes: Int = 1024) throws {
        file = try BlockLogFile(path: path, blockBytes: blockBytes)
    }

    /// Writes one block at the end of the file and fsyncs it.
    func appendAndSync() throws {
        try file.writeBlock(at: end)
        end += file.blockBytes
        try file.sync(dataOnly: false)
    }
}
