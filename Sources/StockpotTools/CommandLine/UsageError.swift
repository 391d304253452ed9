// A command line that cannot be run: what was wrong, for the `Error: ...` line.

/// Why a command line was rejected. The runner prints `Error: <message>` and the command's
/// usage on standard error and exits with ``ExitCode/usage``.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One sentence saying what to fix.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
