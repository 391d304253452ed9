// `stockpot decrypt STORE --key-file F`: an encrypted store rewritten as a plain one,
// crash-safe (docs/durability.md, "Converting a store").

/// The `decrypt` subcommand.
public struct DecryptCommand: ParsableCommand {
    /// The store directory.
    public var directory: String
    /// The key file (`--key-file`, or STOCKPOT_KEY_FILE).
    public var keyFile: String?

    /// How `decrypt` documents itself.
    public static let configuration = CommandConfiguration(
        commandName: "decrypt",
        abstract: "Turn an encrypted store into a plain one.",
        discussion: """
            Opens the encrypted store in STORE with the key file, copies every live record into a new plain store built beside it (STORE.converting), makes it durable, then swaps the two directories in one atomic step and removes the old one. A kill or crash at any point leaves either the old encrypted store or the new plain one at STORE, whole. Anyone who can read the files of the result reads every document.
            """,
        usage: "decrypt STORE --key-file F",
        arguments: [.init("STORE", "The encrypted store's directory.")],
        options: [KeyFile.optionHelp],
        examples: [.init("decrypt ./store --key-file store.key", "Removes the encryption of ./store.")])

    /// Reads the arguments.
    public init(parsing arguments: inout ArgumentScanner) throws(UsageError) {
        keyFile = try KeyFile.takePath(&arguments)
        directory = try arguments.takePositional("STORE")
    }

    /// Decrypts the store.
    public func run() -> ExitCode {
        do throws(ToolFailure) {
            let key = try StoreConverter.requiredKey(keyFile)
            try StoreConverter.convert(directory, from: key, to: nil, done: "Decrypted")
            return .success
        } catch {
            return error.report()
        }
    }
}
