// `stockpot verify STORE`: every record checksum, hint, dictionary, snapshot and blob
// reference of the files (EngineFileCheck), then every index against a rebuild from the log.

import Stockpot
import StockpotStorage

/// The `verify` subcommand.
public struct VerifyCommand: ParsableCommand {
    /// The store directory.
    public var directory: String
    /// The key file (`--key-file`, or STOCKPOT_KEY_FILE); nil for a plain store.
    public var keyFile: String?

    /// How `verify` documents itself.
    public static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every byte and every index of a store; exit 1 on any problem.",
        discussion: """
            Checks the closed store in STORE without changing it: the manifest; every record of every segment (its checksum and shape; every damaged range is named with its file and byte offset, not only the first); sealed segments' lengths and hint files; dictionaries; the snapshot; every blob file a live record refers to (header, length, checksum) and every compressed live value. When the files are sound it opens the store and compares every index of every soup with a rebuild from the entries in the log.
            Prints what it checked and each problem on standard output, and exits 1 when there is any problem. The store must not be open in another process.
            """,
        usage: "verify STORE",
        arguments: [.init("STORE", "The store directory; it must exist.")],
        options: [KeyFile.optionHelp],
        examples: [.init("verify ./store && echo sound", "Checks ./store; prints 'sound' only if nothing is wrong.")])

    /// Reads the arguments.
    public init(parsing arguments: inout ArgumentScanner) throws(UsageError) {
        keyFile = try KeyFile.takePath(&arguments)
        directory = try arguments.takePositional("STORE")
    }

    /// Checks and reports.
    public func run() -> ExitCode {
        guard StoreAccess.isStore(directory) else {
            return ToolFailure("there is no store at \(directory) (no MANIFEST)").report()
        }
        let encryption: StoreEncryption?
        do throws(ToolFailure) {
            encryption = try KeyFile.encryption(keyFile)
        } catch {
            return error.report()
        }
        let files: StorageCheckReport
        do {
            files = try EngineFileCheck.check(directory: directory, encryption: encryption)
        } catch {
            let hint = StoreAccess.keyHint(code: error.code.rawValue).map { "; \($0)" } ?? ""
            return ToolFailure("cannot check \(directory): \(error)\(hint)", status: error.code == .ioError ? .ioError : .failure).report()
        }
        var problems = files.problems
        var lines = files.checked.map { "checked " + $0 }
        if problems.isEmpty {
            do throws(ToolFailure) {
                let store = try StoreAccess.openForReading(directory, encryption: encryption)
                for soup in store.view().checkIndexes() {
                    lines.append("checked soup \"\(soup.soup)\": \(soup.entries) entries, \(soup.indexes) indexes against a rebuild from the log")
                    problems += soup.problems
                }
                try StoreAccess.close(store)
            } catch {
                problems.append("The store does not open: \(error.message)")
            }
        } else {
            lines.append("skipped the index check: the files have problems")
        }
        lines += problems.map { "PROBLEM: " + $0 }
        lines.append(problems.isEmpty ? "verify: no problems found" : "verify: \(problems.count) problems found")
        StandardStream.output.write(lines.joined(separator: "\n") + "\n")
        return problems.isEmpty ? .success : .failure
    }
}
