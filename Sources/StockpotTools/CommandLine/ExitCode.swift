// The process exit statuses the `stockpot` commands use.

/// A process exit status.
///
/// `0` success, `1` a failure the command reports on standard error (a store that cannot be
/// opened or closed, say), `64` a usage error (`EX_USAGE` of sysexits.h).
public struct ExitCode: RawRepresentable, Sendable, Hashable {
    /// The status handed to `exit`.
    public let rawValue: Int32

    /// Creates a status.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The command did what it was asked.
    public static let success = ExitCode(rawValue: 0)
    /// The command failed; standard error says why.
    public static let failure = ExitCode(rawValue: 1)
    /// The command line was wrong; standard error has `Error: ...` and the usage.
    public static let usage = ExitCode(rawValue: 64)
}
