// Reads a file descriptor line by line as bytes, through a fixed read(2) buffer. A line over
// the limit is skipped to its newline without being kept: memory stays within the limit.

import StockpotCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits the bytes of a file descriptor into `\n`-terminated lines.
///
/// A line holds at most `maxLineBytes` bytes (the `\n` not counted); a longer one is reported
/// as ``Line/tooLong(byteCount:)`` and its bytes are dropped as they are read. A last line
/// without a `\n` is still a line. Not thread-safe: one reader per descriptor.
struct LineReader {
    /// What ``next()`` found.
    enum Line: Equatable {
        /// A line's bytes, without the `\n`.
        case line([UInt8])
        /// A line longer than the limit, with its length in bytes.
        case tooLong(byteCount: Int)
    }

    private let fileDescriptor: Int32
    private let maxLineBytes: Int
    private var buffer: [UInt8]
    private var bufferStart = 0
    private var bufferEnd = 0
    private var reachedEnd = false
    /// The bytes of the current line read so far, while it is within the limit.
    private var pending: [UInt8] = []
    /// The length of the current line once it is over the limit; `nil` while it is not.
    private var overlongCount: Int? = nil

    /// Creates a reader of `fileDescriptor` that allows lines of up to `maxLineBytes` bytes.
    init(fileDescriptor: Int32, maxLineBytes: Int, bufferBytes: Int = 1 << 16) {
        self.fileDescriptor = fileDescriptor
        self.maxLineBytes = maxLineBytes
        buffer = Array(repeating: 0, count: max(bufferBytes, 1))
    }

    /// The next line, or `nil` at the end of input.
    ///
    /// - Throws: ``StandardInputError`` when read(2) fails.
    mutating func next() throws(StandardInputError) -> Line? {
        while true {
            if bufferStart < bufferEnd {
                if let line = takeFromBuffer() { return line }
                continue
            }
            if reachedEnd { return finishLastLine() }
            try refill()
        }
    }

    /// Moves buffered bytes into the current line; returns the line when a `\n` ends it.
    private mutating func takeFromBuffer() -> Line? {
        let newline = nextNewline()
        let stop = newline ?? bufferEnd
        append(buffer[bufferStart..<stop])
        bufferStart = newline.map { $0 + 1 } ?? bufferEnd
        return newline == nil ? nil : takeLine()
    }

    /// The index of the first `\n` in the unread part of the buffer. memchr, not
    /// `firstIndex(of:)`: `stockpot import` and `exec` split every byte they read here, and
    /// memchr looks at 16 or more bytes at a time where the generic search looks at one.
    private func nextNewline() -> Int? {
        buffer.withUnsafeBytes { raw -> Int? in
            guard let base = raw.baseAddress,
                let found = memchr(base + bufferStart, Int32(UInt8(ascii: "\n")), bufferEnd - bufferStart)
            else { return nil }
            return UnsafeRawPointer(found) - base
        }
    }

    private mutating func append(_ bytes: ArraySlice<UInt8>) {
        if let count = overlongCount {
            overlongCount = count + bytes.count
        } else if pending.count + bytes.count > maxLineBytes {
            overlongCount = pending.count + bytes.count
            pending = []
        } else {
            let needed = pending.count + bytes.count
            if needed > pending.capacity {
                // Grow geometrically, but never past the limit: a line at the limit costs the
                // limit, not twice it.
                pending.reserveCapacity(min(maxLineBytes, max(needed, pending.capacity * 2)))
            }
            pending.append(contentsOf: bytes)
        }
    }

    private mutating func takeLine() -> Line {
        defer {
            pending = []
            overlongCount = nil
        }
        if let count = overlongCount { return .tooLong(byteCount: count) }
        // A long line that grew geometrically may hold up to twice its bytes: it is handed out
        // at its size (the request holds it while it runs), the large buffer freed at once.
        return .line(pending.count >= 1 << 16 ? pending.exactSize() : pending)
    }

    private mutating func finishLastLine() -> Line? {
        guard !pending.isEmpty || overlongCount != nil else { return nil }
        return takeLine()
    }

    private mutating func refill() throws(StandardInputError) {
        let count = buffer.count
        while true {
            let result = buffer.withUnsafeMutableBytes { raw in
                read(fileDescriptor, raw.baseAddress!, count)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw StandardInputError(errorNumber: errno)
            }
            bufferStart = 0
            bufferEnd = result
            if result == 0 { reachedEnd = true }
            return
        }
    }
}
