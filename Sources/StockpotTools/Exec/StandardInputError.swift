// The error of reading the request stream: read(2) failed.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// read(2) failed on the request stream.
struct StandardInputError: Error, CustomStringConvertible {
    /// The `errno` value.
    var errorNumber: Int32

    var description: String { "reading standard input failed: \(String(cString: strerror(errorNumber)))" }
}
