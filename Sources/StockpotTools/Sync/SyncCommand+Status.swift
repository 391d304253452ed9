// `stockpot sync status STORE`: each soup's sync state from the store alone.

import Stockpot
import StockpotJSON
import StockpotSync

extension SyncCommand {
    func runStatus(_ directory: String) throws(ToolFailure) -> ExitCode {
        let store = try StoreAccess.openForReading(directory, encryption: KeyFile.encryption(keyFile))
        let sync = StoreSync(store: store, server: "")
        let names = soups.isEmpty ? StoreSync.syncableSoups(of: store) : soups
        var failure: ToolFailure?
        for soup in names {
            do throws(SyncError) {
                let status = try sync.status(soup: soup)
                if json {
                    StandardStream.output.write(String(decoding: JSONWriter.write(status.jsonValue), as: UTF8.self) + "\n")
                } else {
                    StandardStream.output.write(
                        "\(soup): watermark \(status.watermark), \(status.syncedEntries) synced entries, "
                            + "\(status.unsyncedKeys.count) unsynced, \(status.conflictKeys.count) in conflict, "
                            + "last down \(SyncReport.time(status.lastDownAt)), last up \(SyncReport.time(status.lastUpAt))\n")
                    for key in status.unsyncedKeys {
                        StandardStream.output.write("  \(status.conflictKeys.contains(key) ? "conflict" : "unsynced") \(key)\n")
                    }
                }
            } catch {
                failure = Self.failure(error)
                break
            }
        }
        try StoreAccess.close(store)
        if let failure { throw failure }
        return .success
    }
}
