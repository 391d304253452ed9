// A file descriptor read one byte at a time through a 1 MiB read(2) buffer: what the JSON
// array and CSV import sources scan.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Buffered bytes of a file descriptor. Not thread-safe.
struct ByteStream {
    private let fileDescriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)
    private var start = 0
    private var end = 0
    private var reachedEnd = false
    /// Bytes handed out so far.
    private(set) var consumed = 0

    init(reading fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// The next byte without taking it; nil at the end of the input.
    mutating func peek() throws(ToolFailure) -> UInt8? {
        if start == end {
            guard !reachedEnd else { return nil }
            try refill()
            if start == end { return nil }
        }
        return buffer[start]
    }

    /// The next byte; nil at the end of the input.
    mutating func next() throws(ToolFailure) -> UInt8? {
        guard let byte = try peek() else { return nil }
        start += 1
        consumed += 1
        return byte
    }

    private mutating func refill() throws(ToolFailure) {
        let capacity = buffer.count
        while true {
            let result = buffer.withUnsafeMutableBytes { raw in read(fileDescriptor, raw.baseAddress!, capacity) }
            if result < 0 {
                if errno == EINTR { continue }
                throw ToolFailure("cannot read the input: \(SystemError.describe(errno))", status: .ioError)
            }
            start = 0
            end = result
            if result == 0 { reachedEnd = true }
            return
        }
    }
}
