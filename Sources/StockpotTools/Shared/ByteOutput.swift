// Buffered output to standard output or a file through write(2), in 1 MiB chunks. A file is
// written under a temporary name of its own (created exclusively, never through a link) and
// renamed when complete, so a failed dump never leaves a file that looks whole. An output
// may seal what it writes as an encrypted dump (docs/format/encryption.md, "Encrypted dump").

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import StockpotStorage

/// A byte sink with a buffer. Not thread-safe: one writer.
package final class ByteOutput {
    private let fileDescriptor: Int32
    /// For a file: its final path and the temporary one being written.
    private let paths: (final: String, temporary: String)?
    private var buffer: [UInt8] = []
    private let capacity = 1 << 20
    /// Bytes handed to ``append(_:)`` so far.
    package private(set) var byteCount = 0
    /// The errno of the write that failed, once one has (`EPIPE`: the reader went away).
    package private(set) var failedErrorNumber: Int32?
    /// Seals every byte appended into encrypted-dump messages; nil writes them as they are.
    private var sealer: DumpStream.Sealer?
    /// The encrypted dump's header, written before the first message.
    private var pendingHeader: [UInt8] = []

    /// Bytes appended but not yet written.
    package var bufferedByteCount: Int { buffer.count }

    private init(fileDescriptor: Int32, paths: (String, String)?) {
        self.fileDescriptor = fileDescriptor
        self.paths = paths
        buffer.reserveCapacity(capacity)
    }

    /// Standard output.
    package static func standardOutput() -> ByteOutput {
        ByteOutput(fileDescriptor: 1, paths: nil)
    }

    /// A new file at `path`, written as `path.<pid>.tmp` until ``finish()``.
    ///
    /// The temporary file is created with `O_EXCL | O_NOFOLLOW`: whatever is at its name
    /// already (a symbolic link planted there, a file left by a killed run) makes the call fail
    /// rather than be followed or overwritten; the final rename replaces `path` itself, never
    /// what a link there points to.
    ///
    /// - Throws: an I/O ``ToolFailure`` when it cannot be created.
    package static func file(_ path: String) throws(ToolFailure) -> ByteOutput {
        let temporary = path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ToolFailure("cannot create \(temporary): \(SystemError.describe(errno))", status: .ioError)
        }
        return ByteOutput(fileDescriptor: descriptor, paths: (path, temporary))
    }

    /// Makes everything appended from now on an encrypted dump sealed by `sealer`: its header
    /// first, then messages of up to 64 KiB, the last one (written by ``finish()``) FINAL.
    /// Call before anything is appended.
    package func seal(with sealer: DumpStream.Sealer) {
        precondition(byteCount == 0 && buffer.isEmpty, "sealing starts before the first byte")
        self.sealer = sealer
        pendingHeader = sealer.header
    }

    /// Appends bytes, writing the buffer out when full.
    package func append(_ bytes: some Collection<UInt8>) throws(ToolFailure) {
        buffer.append(contentsOf: bytes)
        byteCount += bytes.count
        if buffer.count >= capacity { try flush() }
    }

    /// Appends one byte.
    package func append(byte: UInt8) throws(ToolFailure) {
        buffer.append(byte)
        byteCount += 1
        if buffer.count >= capacity { try flush() }
    }

    /// Writes out what is buffered; an output that seals keeps a last partial 64 KiB chunk
    /// until more bytes fill it or ``finish()`` seals it as the final message.
    package func flush() throws(ToolFailure) {
        try flush(final: false)
    }

    private func flush(final: Bool) throws(ToolFailure) {
        guard let sealer else {
            guard !buffer.isEmpty else { return }
            try writeOut(buffer)
            buffer.removeAll(keepingCapacity: true)
            return
        }
        if !pendingHeader.isEmpty {
            try writeOut(pendingHeader)
            pendingHeader = []
        }
        // Every message but the final one holds exactly 64 KiB: a partial chunk waits.
        let chunk = DumpStream.chunkBytes
        let sealing = final ? buffer.count : buffer.count - buffer.count % chunk
        guard sealing > 0 || final else { return }
        var messages: [UInt8] = []
        buffer.withUnsafeBytes { raw in
            var start = 0
            repeat {
                let end = min(start + chunk, sealing)
                messages += sealer.seal(UnsafeRawBufferPointer(rebasing: raw[start..<end]), final: final && end == sealing)
                start = end
            } while start < sealing
        }
        try writeOut(messages)
        buffer.removeFirst(sealing)
    }

    /// Writes `bytes` with write(2), whole.
    private func writeOut(_ bytes: [UInt8]) throws(ToolFailure) {
        let ok = bytes.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let written = write(fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
        guard ok else {
            failedErrorNumber = errno
            throw ToolFailure("cannot write \(paths?.temporary ?? "standard output"): \(SystemError.describe(errno))", status: .ioError)
        }
    }

    /// Whether a write failed because the reader of a pipe went away.
    package var readerWentAway: Bool { failedErrorNumber == EPIPE }

    /// Writes out the rest; a file is fsynced, closed and renamed to its final name.
    package func finish() throws(ToolFailure) {
        try flush(final: true)
        guard let paths else { return }
        defer { close(fileDescriptor) }
        guard fsync(fileDescriptor) == 0 else {
            throw ToolFailure("cannot sync \(paths.temporary): \(SystemError.describe(errno))", status: .ioError)
        }
        guard rename(paths.temporary, paths.final) == 0 else {
            throw ToolFailure("cannot rename \(paths.temporary) to \(paths.final): \(SystemError.describe(errno))", status: .ioError)
        }
    }

    /// Abandons a file: closes and removes the temporary file.
    package func abandon() {
        guard let paths else { return }
        close(fileDescriptor)
        unlink(paths.temporary)
    }
}

/// Text for errno values.
enum SystemError {
    static func describe(_ number: Int32) -> String {
        guard let text = strerror(number) else { return "errno \(number)" }
        return String(cString: text) + " (errno \(number))"
    }
}
