// The shell's dot-commands for scripts and output: `.read FILE` runs a file's statements and
// commands in this session, `.output [FILE]` and `.once FILE` send rows elsewhere.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ShellSession {
    /// How deep `.read` files may run inside each other (a file that reads itself stops).
    static let maxReadDepth = 16

    /// Runs the statements and dot-commands of `path` as if typed here, with a splitter of
    /// their own: a statement left open at the file's end is run (or reported), not continued
    /// by the lines after `.read`.
    func read(_ path: String) throws(ToolFailure) {
        guard readDepth < Self.maxReadDepth else {
            throw ToolFailure(".read files run inside each other more than \(Self.maxReadDepth) deep (does \(path) read itself?)")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ToolFailure("cannot open \(path): \(SystemError.describe(errno))") }
        defer { close(descriptor) }
        let outer = splitter
        splitter = StatementSplitter()
        readDepth += 1
        defer {
            readDepth -= 1
            splitter = outer
        }
        var input = PipedShellInput(reading: descriptor)
        try runLines(from: &input)
    }

    /// Sends rows and command output to a new file at `path` (replacing it when complete), or
    /// back to standard output without one; `once`: only for the next statement.
    func redirect(to path: String?, once: Bool) throws(ToolFailure) {
        endRedirection()
        guard let path else { return }
        output = try ByteOutput.file(path)
        outputIsOnce = once
    }
}
