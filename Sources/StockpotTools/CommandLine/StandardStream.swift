// Unbuffered writes to standard output and standard error through write(2), so that every
// line reaches a pipe when it is written (no stdio buffer to flush).

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output or standard error, written with write(2).
public struct StandardStream: Sendable {
    /// The file descriptor written to.
    public let fileDescriptor: Int32

    /// Standard output: data and responses.
    public static let output = StandardStream(fileDescriptor: 1)
    /// Standard error: progress, warnings and errors.
    public static let error = StandardStream(fileDescriptor: 2)

    /// Writes all of `bytes`, retrying short writes and interrupted calls.
    ///
    /// - Returns: `false` when the descriptor refused the bytes (a closed pipe, say).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                    let written = Glibc.write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                    let written = Darwin.write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// Writes `text` as UTF-8.
    @discardableResult
    public func write(_ text: String) -> Bool {
        write(Array(text.utf8))
    }
}
