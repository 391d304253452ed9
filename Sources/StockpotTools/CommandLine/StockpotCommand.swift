// The `stockpot` program: picks the subcommand, handles `--help`, `--version` and `help <subcommand>`,
// turns usage errors into `Error: ...` plus usage on standard error and exit status 64.

import Stockpot

/// The root of the `stockpot` command line.
///
/// To add a subcommand, write a ``ParsableCommand`` and list it in ``subcommands``.
public enum StockpotCommand {
    /// What `stockpot --help` says the program is.
    public static let abstract = "Command-line tools for Stockpot, an embedded JSON document store."

    /// Every subcommand, in the order `stockpot --help` lists them.
    public static var subcommands: [any ParsableCommand.Type] {
        [
            ExecCommand.self, ImportCommand.self, DumpCommand.self, RestoreCommand.self, QueryCommand.self, ShellCommand.self, StatsCommand.self,
            CompactCommand.self, SyncCommand.self, VerifyCommand.self, SalvageCommand.self, EncryptCommand.self, DecryptCommand.self,
            RekeyCommand.self, DemoCommand.self,
        ]
    }

    /// What a command line asks for, once parsed.
    public enum Invocation {
        /// Print this text on standard output and exit 0.
        case help(String)
        /// Print this text (`Error: ...` and a usage line) on standard error and exit 64.
        case usageError(String)
        /// Run this command.
        case run(any ParsableCommand)
    }

    /// Parses a command line (the arguments after the program name).
    public static func parse(_ arguments: [String]) -> Invocation {
        guard let name = arguments.first else {
            return .usageError(usageErrorText("Missing a subcommand.", usage: rootUsageBlock))
        }
        let rest = Array(arguments.dropFirst())
        switch name {
        case "--help", "-h":
            return .help(rootHelp)
        case "--version":
            return .help("stockpot \(StockpotVersion.library) (exec protocol \(StockpotVersion.execProtocol))\n")
        case "help":
            guard let topic = rest.first else { return .help(rootHelp) }
            guard rest.count == 1 else {
                return .usageError(usageErrorText("'help' takes one subcommand name.", usage: rootUsageBlock))
            }
            guard let command = subcommand(named: topic) else {
                return .usageError(usageErrorText("Unknown subcommand '\(topic)'.", usage: rootUsageBlock))
            }
            return .help(HelpFormatter.help(for: command.configuration))
        default:
            guard let command = subcommand(named: name) else {
                return .usageError(usageErrorText("Unknown subcommand '\(name)'.", usage: rootUsageBlock))
            }
            return parse(rest, as: command)
        }
    }

    /// Parses the arguments of one subcommand.
    static func parse(_ arguments: [String], as command: any ParsableCommand.Type) -> Invocation {
        var scanner = ArgumentScanner(arguments)
        if scanner.takeHelpFlag() { return .help(HelpFormatter.help(for: command.configuration)) }
        do throws(UsageError) {
            let parsed = try command.init(parsing: &scanner)
            try scanner.finish()
            return .run(parsed)
        } catch {
            let usage =
                HelpFormatter.usage(for: command.configuration)
                + "\n  See '\(HelpFormatter.programName) help \(command.configuration.commandName)' for more."
            return .usageError(usageErrorText(error.message, usage: usage))
        }
    }

    /// Parses and runs a command line, printing help, errors and output.
    ///
    /// - Returns: the status the process should exit with.
    public static func main(_ arguments: [String]) -> ExitCode {
        switch parse(arguments) {
        case .help(let text):
            StandardStream.output.write(text)
            return .success
        case .usageError(let text):
            StandardStream.error.write(text)
            return .usage
        case .run(let command):
            return command.run()
        }
    }

    /// The subcommand called `name`, if any.
    static func subcommand(named name: String) -> (any ParsableCommand.Type)? {
        subcommands.first { $0.configuration.commandName == name }
    }

    static var rootHelp: String {
        HelpFormatter.rootHelp(abstract: abstract, subcommands: subcommands.map { $0.configuration })
    }

    private static var rootUsageBlock: String {
        HelpFormatter.rootUsage + "\n  See '\(HelpFormatter.programName) --help' for the subcommands."
    }

    private static func usageErrorText(_ message: String, usage: String) -> String {
        "Error: \(message)\n\n\(usage)\n"
    }
}
