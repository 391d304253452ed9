// What a command says about itself: name, abstract, usage, arguments, options, examples.
// HelpFormatter turns it into `--help` text.

/// The description of one command, the source of its `--help` text and usage line.
public struct CommandConfiguration: Sendable {
    /// One documented argument or option: how it is written and what it means.
    public struct Item: Sendable {
        /// How it is written: `STORE`, `--durability full|interval|none`.
        public var syntax: String
        /// What it does, one or two sentences.
        public var help: String

        /// Creates an item.
        public init(_ syntax: String, _ help: String) {
            self.syntax = syntax
            self.help = help
        }
    }

    /// One example invocation and what it does.
    public struct Example: Sendable {
        /// The command line, as typed.
        public var command: String
        /// What it does.
        public var explanation: String

        /// Creates an example.
        public init(_ command: String, _ explanation: String) {
            self.command = command
            self.explanation = explanation
        }
    }

    /// The name typed on the command line (`exec`).
    public var commandName: String
    /// One line saying what the command does.
    public var abstract: String
    /// Longer explanation, shown under the abstract in `--help`.
    public var discussion: String
    /// The usage line without the program name (`exec STORE [options]`).
    public var usage: String
    /// Positional arguments.
    public var arguments: [Item]
    /// Options and flags; `--help` is added by the formatter.
    public var options: [Item]
    /// Example invocations.
    public var examples: [Example]

    /// Creates a configuration.
    public init(
        commandName: String, abstract: String, discussion: String = "", usage: String,
        arguments: [Item] = [], options: [Item] = [], examples: [Example] = []
    ) {
        self.commandName = commandName
        self.abstract = abstract
        self.discussion = discussion
        self.usage = usage
        self.arguments = arguments
        self.options = options
        self.examples = examples
    }
}
