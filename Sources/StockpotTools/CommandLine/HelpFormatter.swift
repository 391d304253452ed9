// Renders a CommandConfiguration as `--help` text (overview, usage, arguments, options,
// examples) and the short usage block printed after a usage error.

/// Formats help and usage text, wrapped to 80 columns.
public enum HelpFormatter {
    /// The program name help text uses.
    public static let programName = "stockpot"
    private static let width = 80
    private static let syntaxColumn = 26

    /// The full `--help` text of a command.
    public static func help(for configuration: CommandConfiguration) -> String {
        var lines = ["OVERVIEW: \(configuration.abstract)"]
        if !configuration.discussion.isEmpty {
            lines.append("")
            for paragraph in configuration.discussion.split(separator: "\n", omittingEmptySubsequences: false) {
                lines += wrap(String(paragraph), indent: "")
            }
        }
        lines.append("")
        lines.append(usage(for: configuration))
        if !configuration.arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            for item in configuration.arguments { lines += table(item) }
        }
        lines += ["", "OPTIONS:"]
        for item in configuration.options { lines += table(item) }
        lines += table(.init("-h, --help", "Show help information."))
        if !configuration.examples.isEmpty {
            lines += ["", "EXAMPLES:"]
            for example in configuration.examples {
                lines.append("  \(programName) \(example.command)")
                lines += wrap(example.explanation, indent: "      ")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `USAGE:` line of a command.
    public static func usage(for configuration: CommandConfiguration) -> String {
        "USAGE: \(programName) \(configuration.usage)"
    }

    /// The help text of the program itself: its subcommands and how to get their help.
    public static func rootHelp(abstract: String, subcommands: [CommandConfiguration]) -> String {
        var lines = ["OVERVIEW: \(abstract)", "", rootUsage, "", "SUBCOMMANDS:"]
        for subcommand in subcommands {
            lines += table(.init(subcommand.commandName, subcommand.abstract))
        }
        lines += table(.init("help", "Show help for a subcommand."))
        lines += ["", "  See '\(programName) help <subcommand>' for detailed help."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The usage line of the program itself.
    public static var rootUsage: String { "USAGE: \(programName) <subcommand> [options]" }

    /// One row of an arguments or options table: the syntax, then the help text wrapped in a
    /// second column (on the next line when the syntax is too wide).
    private static func table(_ item: CommandConfiguration.Item) -> [String] {
        let indent = String(repeating: " ", count: syntaxColumn)
        var wrapped = wrap(item.help, indent: indent)
        let syntax = "  " + item.syntax
        if syntax.count + 2 <= syntaxColumn, !wrapped.isEmpty {
            let padding = String(repeating: " ", count: syntaxColumn - syntax.count)
            wrapped[0] = syntax + padding + wrapped[0].dropFirst(syntaxColumn)
            return wrapped
        }
        return [syntax] + wrapped
    }

    /// Word-wraps `text` to the page width, each line starting with `indent`.
    private static func wrap(_ text: String, indent: String) -> [String] {
        var lines: [String] = []
        var line = indent
        for word in text.split(separator: " ") {
            if line.count > indent.count, line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
            }
            line += (line.count > indent.count ? " " : "") + word
        }
        if line.count > indent.count || lines.isEmpty { lines.append(line) }
        return lines
    }
}
