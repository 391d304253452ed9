// What encrypt, decrypt and rekey --rotate share: the store rewritten whole under another key
// (or none) by StoreConversion, with a progress bar and a summary line on standard error.

import Stockpot
import StockpotStorage

/// Runs whole-store conversions for the tools. Stateless.
enum StoreConverter {
    /// Converts the store in `directory` from `from` to `to` (nil: plain); `done` names what
    /// happened in the summary ("Encrypted").
    ///
    /// - Throws: a ``ToolFailure``: no store there (1); a key refused (1); the store busy (1);
    ///   an I/O error (74). The store is then as it was.
    static func convert(
        _ directory: String, from: StoreEncryption?, to: StoreEncryption?, done: String
    ) throws(ToolFailure) {
        guard StoreAccess.isStore(directory) else {
            throw ToolFailure("there is no store at \(directory) (no MANIFEST)")
        }
        let progress = ProgressBar(label: done.lowercased())
        let report: StoreConversion.Report
        do throws(StorageError) {
            report = try StoreConversion.convert(directory: directory, from: from, to: to) { keys, bytes in
                progress.update(entries: keys, bytes: bytes)
            }
        } catch {
            progress.finish()
            let hint = StoreAccess.keyHint(code: error.code.rawValue).map { "; \($0)" } ?? ""
            throw ToolFailure(
                "cannot convert the store at \(directory): \(error)\(hint)", status: error.code == .ioError ? .ioError : .failure)
        }
        progress.finish()
        let seconds = progress.elapsedSeconds
        var summary =
            "\(done) \(directory): \(report.keys) keys (\(ByteCount.describe(report.bytes))) rewritten in "
            + ProgressBar.decimal(seconds, places: 2) + " s.\n"
        if report.removedLeftover {
            summary = "Removed \(StoreConversion.stagingPath(for: directory)), left by an interrupted conversion.\n" + summary
        }
        StandardStream.error.write(summary)
    }

    /// Loads the key file at `path`, which a command needs.
    static func requiredKey(_ path: String?, option: String = KeyFile.option) throws(ToolFailure) -> StoreEncryption {
        guard let path else {
            throw ToolFailure("a key file is needed: give \(option) F" + (option == KeyFile.option ? " (or set STOCKPOT_KEY_FILE)" : ""))
        }
        return try KeyFile.load(path)
    }
}
