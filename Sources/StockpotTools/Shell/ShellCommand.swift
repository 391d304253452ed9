// `stockpot shell STORE`: an interactive Smart SQL shell in the spirit of the sqlite3 shell,
// the same when fed from a pipe (without prompts).

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Stockpot

/// The `shell` subcommand.
public struct ShellCommand: ParsableCommand {
    /// The store directory.
    public var directory: String
    /// The output mode the session starts in.
    package var mode: RowFormat
    /// The key file (`--key-file`, or STOCKPOT_KEY_FILE); nil for a plain store.
    public var keyFile: String?

    /// How `shell` documents itself.
    public static let configuration = CommandConfiguration(
        commandName: "shell",
        abstract: "An interactive Smart SQL shell on a store, like the sqlite3 shell.",
        discussion: """
            Opens (or creates) the store in STORE and reads standard input: Smart SQL statements ending in ';' (they may span lines; a ';' inside '...', "...", `...`, [...], {soup:path} or a comment does not end one), and dot-commands on lines of their own between statements (.help lists them). Rows go to standard output in the current mode (.mode), one statement after the other; errors are printed as 'Error: ...' on standard error and the session goes on. A statement left without ';' at the end of the input is run.
            When standard input is a terminal, the prompt 'stockpot>' (and the continuation prompt '...>' inside a statement) is written to standard output; from a pipe or file there is no prompt and the output is otherwise the same, so a script of statements can be fed in.
            Exit status: 0 at the end of input or .quit; 1 when the input is not a terminal and any statement or dot-command failed (the session still runs to the end); 1 when the store cannot be opened or closed; 74 when standard input cannot be read or standard output written (the session ends then).
            """,
        usage: "shell STORE [--mode table|json|jsonl|csv]",
        arguments: [.init("STORE", "The store directory; created when it does not exist.")],
        options: [
            .init("--mode table|json|jsonl|csv", "The output mode to start in (table by default); .mode changes it."),
            KeyFile.optionHelp,
        ],
        examples: [
            .init("shell ./store", "Starts an interactive session; type .help for the dot-commands."),
            .init(
                "shell ./store < script.sql",
                "Runs the statements and dot-commands of script.sql; exits 1 if any of them failed."),
            .init(
                "shell ./store --mode jsonl <<< 'SELECT {accounts:Name} FROM {accounts};'",
                "Runs one statement from a here-string, printing JSON Lines."),
        ])

    /// Reads the arguments.
    public init(parsing arguments: inout ArgumentScanner) throws(UsageError) {
        let name = try arguments.takeOption("--mode") ?? RowFormat.table.rawValue
        guard let mode = RowFormat(name: name) else {
            throw UsageError("The option '--mode' must be \(RowFormat.names), not '\(name)'.")
        }
        self.mode = mode
        keyFile = try KeyFile.takePath(&arguments)
        directory = try arguments.takePositional("STORE")
    }

    /// Opens the store, runs the session to the end of input, closes the store.
    public func run() -> ExitCode {
        // A reader that goes away must end the session, not the process before the close.
        signal(SIGPIPE, SIG_IGN)
        do throws(ToolFailure) {
            var options = StoreOptions()
            options.encryption = try KeyFile.encryption(keyFile)
            let store = try StoreAccess.open(directory, options: options)
            let interactive = isatty(0) != 0
            let session = ShellSession(store: store, mode: mode, interactive: interactive, dumpKey: options.encryption)
            let status: ExitCode
            if interactive {
                ShellInterrupt.install()
                let editor = LineEditor(historyPath: LineEditor.defaultHistoryPath)
                var input = EditedShellInput(editor: editor)
                status = session.run(&input)
                editor.saveHistory()
            } else {
                var input = PipedShellInput(reading: 0)
                status = session.run(&input)
            }
            try StoreAccess.close(store)
            return status
        } catch {
            return error.report()
        }
    }
}
