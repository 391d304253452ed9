// Builds the StorageError for a failed system call (real or simulated), so the real and the
// in-memory file systems report the same code, errno and sentence for the same failure.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension StorageError {
    /// The error for a system call on `path` that failed with `code`: `notFound` for ENOENT,
    /// `ioError` otherwise, with the errno kept either way.
    ///
    /// - Parameters:
    ///   - operation: What was attempted, as a verb phrase ("open", "write to", "fsync").
    ///   - path: The file or directory involved.
    ///   - code: The system error number.
    package static func systemCall(_ operation: String, path: String, errno code: Int32)
        -> StorageError
    {
        let reason = String(cString: strerror(code))
        let kind: Code = code == ENOENT ? .notFound : .ioError
        return StorageError(kind, "Could not \(operation) \(path): \(reason).", file: path, errno: code)
    }
}
