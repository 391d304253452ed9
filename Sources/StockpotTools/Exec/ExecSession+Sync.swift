// The sync operations of the exec protocol (docs/protocol.md, "Sync"): Mobile Sync's names,
// against the server given by `stockpot exec STORE --sync-server URI` (docs/sync.md).

import Stockpot
import StockpotJSON
import StockpotSync

extension StockpotError.Code {
    /// A sync operation without `--sync-server`.
    package static let noSyncServer = StockpotError.Code(rawValue: "no_sync_server")
}

extension ExecSession {
    /// syncDown, syncUp, reSync, cleanResyncGhosts: `soupName`, optional `options` with
    /// `mergeMode`, `conflictPolicy` (serverWins, clientWins, fail), `filter`, `batchSize`.
    func sync(_ operation: StoreSync.Operation, _ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        guard let server = syncServer else {
            throw StockpotError(.noSyncServer, "The sync operations need a server: start exec with --sync-server URI.")
        }
        let soup = try soupName(arguments)
        var options = SyncOptions()
        if let given = arguments.value("options"), given != .null {
            guard case .object(let object) = given else {
                throw StockpotError(.badRequest, "The argument \"options\" must be an object.")
            }
            if let mode = object["mergeMode"], mode != .null {
                guard let name = mode.stringValue, let mergeMode = MergeMode(rawValue: name) else {
                    throw StockpotError(.badRequest, "The argument \"options.mergeMode\" must be \"overwrite\" or \"leaveIfChanged\".")
                }
                options.mergeMode = mergeMode
            }
            if let policy = object["conflictPolicy"], policy != .null {
                guard let name = policy.stringValue, let conflictPolicy = ConflictPolicy(name: name) else {
                    throw StockpotError(.badRequest, "The argument \"options.conflictPolicy\" must be \"serverWins\", \"clientWins\" or \"fail\".")
                }
                options.conflictPolicy = conflictPolicy
            }
            if let filter = object["filter"], filter != .null {
                guard case .object = filter else { throw StockpotError(.badRequest, "The argument \"options.filter\" must be an object.") }
                options.filter = filter
            }
            if let batch = object["batchSize"], batch != .null {
                guard let size = batch.integerValue, (1...1_000_000).contains(size) else {
                    throw StockpotError(.badRequest, "The argument \"options.batchSize\" must be an integer from 1 to 1000000.")
                }
                options.batchSize = Int(size)
            }
        }
        do {
            return try StoreSync(store: store, server: server).perform(operation, soup: soup, options: options).jsonValue
        } catch {
            throw StockpotError(StockpotError.Code(rawValue: error.code.rawValue), error.message)
        }
    }

    /// getSyncStatus: `soupName`; the soup's sync state from the store alone.
    func syncStatus(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let soup = try soupName(arguments)
        do {
            return try StoreSync(store: store, server: syncServer ?? "").status(soup: soup).jsonValue
        } catch {
            throw StockpotError(StockpotError.Code(rawValue: error.code.rawValue), error.message)
        }
    }
}
