// `stockpot encrypt STORE --key-file F`: a plain store rewritten as an encrypted one, crash-safe
// (docs/durability.md, "Converting a store").

/// The `encrypt` subcommand.
public struct EncryptCommand: ParsableCommand {
    /// The store directory.
    public var directory: String
    /// The key file (`--key-file`, or STOCKPOT_KEY_FILE).
    public var keyFile: String?

    /// How `encrypt` documents itself.
    public static let configuration = CommandConfiguration(
        commandName: "encrypt",
        abstract: "Turn a plain store into an encrypted one.",
        discussion: """
            Copies every live record of the plain store in STORE into a new encrypted store built beside it (STORE.converting), keyed by the key file, with a fresh random data key; makes it durable, then swaps the two directories in one atomic step and removes the old one. A kill or crash at any point leaves either the old plain store or the new encrypted one at STORE, whole; a STORE.converting left behind is removed by the next conversion. The store must not be open elsewhere (it is locked throughout). Soups, entries, ids, dates and the change feed are kept; the indexes are rebuilt at the next open.
            """,
        usage: "encrypt STORE --key-file F",
        arguments: [.init("STORE", "The plain store's directory.")],
        options: [KeyFile.optionHelp],
        examples: [
            .init("encrypt ./store --key-file store.key", "Encrypts ./store with the key in store.key."),
            .init("openssl rand -hex 32 > store.key && chmod 600 store.key", "Makes a raw key file."),
        ])

    /// Reads the arguments.
    public init(parsing arguments: inout ArgumentScanner) throws(UsageError) {
        keyFile = try KeyFile.takePath(&arguments)
        directory = try arguments.takePositional("STORE")
    }

    /// Encrypts the store.
    public func run() -> ExitCode {
        do throws(ToolFailure) {
            let key = try StoreConverter.requiredKey(keyFile)
            try StoreConverter.convert(directory, from: nil, to: key, done: "Encrypted")
            return .success
        } catch {
            return error.report()
        }
    }
}
