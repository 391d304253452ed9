// Where a data command reads from: a file named on the command line, or standard input (no
// name, or `-`), with its size when it is a regular file (for progress and ETA).

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open input: a file descriptor, what to call it, and its size when known.
final class InputSource {
    let fileDescriptor: Int32
    /// The file name, or "standard input".
    let name: String
    /// Bytes in the input when it is a regular file; nil for pipes and terminals.
    let size: Int?
    private let owned: Bool

    private init(fileDescriptor: Int32, name: String, owned: Bool) {
        self.fileDescriptor = fileDescriptor
        self.name = name
        self.owned = owned
        var status = stat()
        if fstat(fileDescriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
            size = Int(status.st_size)
        } else {
            size = nil
        }
    }

    deinit {
        if owned { close(fileDescriptor) }
    }

    /// Opens `path`, or standard input when it is nil or `-`.
    ///
    /// - Throws: an I/O ``ToolFailure`` when the file cannot be opened.
    static func open(_ path: String?) throws(ToolFailure) -> InputSource {
        guard let path, path != "-" else {
            return InputSource(fileDescriptor: 0, name: "standard input", owned: false)
        }
        #if canImport(Glibc)
            let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        #else
            let descriptor = Darwin.open(path, O_RDONLY | O_CLOEXEC)
        #endif
        guard descriptor >= 0 else {
            throw ToolFailure("cannot open \(path): \(SystemError.describe(errno))", status: .ioError)
        }
        return InputSource(fileDescriptor: descriptor, name: path, owned: true)
    }
}
