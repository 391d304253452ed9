// `stockpot rekey STORE --key-file OLD --new-key-file NEW [--rotate]`: a new key for an
// encrypted store (its ENCRYPTION file replaced), or with --rotate every byte re-encrypted
// under a fresh data key (docs/encryption.md, "Rekey, rotation, encrypt and decrypt").

import Stockpot

/// The `rekey` subcommand.
public struct RekeyCommand: ParsableCommand {
    /// The store directory.
    public var directory: String
    /// The current key file (`--key-file`, or STOCKPOT_KEY_FILE).
    public var keyFile: String?
    /// The new key file (`--new-key-file`); with --rotate it may be absent (the key stays).
    public var newKeyFile: String?
    /// Re-encrypt everything under a fresh data key.
    public var rotate: Bool

    /// How `rekey` documents itself.
    public static let configuration = CommandConfiguration(
        commandName: "rekey",
        abstract: "Change an encrypted store's key, or rotate its data key with --rotate.",
        discussion: """
            Without --rotate: the store's data key is wrapped under the new key and the small ENCRYPTION file is replaced (written beside, synced, renamed, directory synced); no data byte is rewritten, so it is quick whatever the store's size. A crash leaves the store opening with the old key or with the new one, never neither.
            With --rotate: every live record is re-encrypted under a fresh random data key in a new store built beside STORE (STORE.converting), keyed by the new key file (or the current one when --new-key-file is not given), which is made durable and swapped with STORE in one atomic step. A kill or crash at any point leaves the old store (old key) or the new one (new key) at STORE, whole. Use it when the data key itself may have leaked.
            The store must not be open elsewhere.
            """,
        usage: "rekey STORE --key-file OLD [--new-key-file NEW] [--rotate]",
        arguments: [.init("STORE", "The encrypted store's directory.")],
        options: [
            .init("--key-file OLD", "The store's current key file (default: the file STOCKPOT_KEY_FILE names)."),
            .init("--new-key-file NEW", "The key file to change to: 64 hex digits or a one-line passphrase. Never read from the environment."),
            .init("--rotate", "Also re-encrypt every byte under a fresh data key (a full copy of the store)."),
        ],
        examples: [
            .init("rekey ./store --key-file old.key --new-key-file new.key", "Changes the key of ./store."),
            .init("rekey ./store --key-file store.key --rotate", "Re-encrypts ./store under a fresh data key, same key file."),
        ])

    /// Reads the arguments.
    public init(parsing arguments: inout ArgumentScanner) throws(UsageError) {
        keyFile = try KeyFile.takePath(&arguments)
        newKeyFile = try KeyFile.takePath(&arguments, option: "--new-key-file", environment: false)
        rotate = try arguments.takeFlag("--rotate")
        directory = try arguments.takePositional("STORE")
        if newKeyFile == nil, !rotate {
            throw UsageError("Give the new key with '--new-key-file NEW', or '--rotate' to keep the key and change the data key.")
        }
    }

    /// Changes the key.
    public func run() -> ExitCode {
        do throws(ToolFailure) {
            let old = try StoreConverter.requiredKey(keyFile)
            let new = try newKeyFile.map { path throws(ToolFailure) in try KeyFile.load(path) } ?? old
            if rotate {
                try StoreConverter.convert(directory, from: old, to: new, done: "Rotated")
                return .success
            }
            var options = StoreOptions()
            options.encryption = old
            options.backgroundCompaction = false
            let store = try StoreAccess.openExisting(directory, options: options)
            do {
                try store.rekey(to: new)
            } catch {
                try? store.close()
                throw ToolFailure(error, doing: "cannot change the key of \(directory)", hint: StoreAccess.keyHint(error))
            }
            try StoreAccess.close(store)
            StandardStream.error.write("Changed the key of \(directory).\n")
            return .success
        } catch {
            return error.report()
        }
    }
}
