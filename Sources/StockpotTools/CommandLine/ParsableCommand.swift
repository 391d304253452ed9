// The shape every `stockpot` subcommand has: a configuration, a parser over its arguments,
// and `run()`. Adding a subcommand is one type plus one line in StockpotCommand.subcommands.

/// A subcommand of `stockpot`, shaped like swift-argument-parser's `ParsableCommand`.
///
/// A conforming type reads its arguments in ``init(parsing:)`` from an ``ArgumentScanner``
/// (which has already taken out `--help`), and does its work in ``run()``. Usage errors are
/// thrown as ``UsageError``; failures while running are reported by `run()` itself on
/// standard error and turned into an ``ExitCode``.
public protocol ParsableCommand {
    /// What the command is called and how it is documented.
    static var configuration: CommandConfiguration { get }

    /// Reads the command's arguments.
    ///
    /// - Throws: ``UsageError`` for a missing, malformed or unexpected argument.
    init(parsing arguments: inout ArgumentScanner) throws(UsageError)

    /// Does the command's work.
    ///
    /// - Returns: the status the process exits with.
    func run() -> ExitCode
}
