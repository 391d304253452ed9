// The change-feed operations of the exec protocol (docs/protocol.md): getLastSeq (inline in
// ExecSession), getChanges and purgeTombstones.

import Stockpot
import StockpotJSON

extension ExecSession {
    func getChanges(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let since = try sequence("since", arguments)
        let soups = try arguments.optionalStrings("soupNames")
        let limit = try arguments.optionalInteger("limit") ?? 1000
        guard (1...Int64(ExecBudgets.maxChangesPerPage)).contains(limit) else {
            throw StockpotError(
                .badRequest, "The argument \"limit\" must be from 1 to \(ExecBudgets.maxChangesPerPage), not \(limit).")
        }
        let page: ChangePage
        do {
            page = try store.changes(since: since, soups: soups, limit: Int(clamping: limit))
        } catch  where error.code == .invalidArgument {
            throw StockpotError(.badRequest, error.message)
        }
        var result = JSONObject()
        result["changes"] = .array(page.changes.map(Self.jsonValue))
        result["lastSeq"] = .integer(Int64(bitPattern: page.lastSequence))
        result["more"] = .bool(page.hasMore)
        return .object(result)
    }

    func purgeTombstones(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let through = try sequence("through", arguments)
        try write { (transaction) throws(StockpotError) in try transaction.purgeTombstones(through: through) }
        return .null
    }

    /// A required non-negative integer argument holding a sequence.
    private func sequence(_ name: String, _ arguments: ArgumentReader) throws(StockpotError) -> UInt64 {
        let value = try arguments.integer(name)
        guard value >= 0 else {
            throw StockpotError(.badRequest, "The argument \"\(name)\" must be a sequence number (0 or more), not \(value).")
        }
        return UInt64(value)
    }

    /// A change as the protocol writes it: `seq`, `soupName`, `op`, then `entry` for an upsert,
    /// `id` (and `key` when kept) for a delete.
    private static func jsonValue(_ change: Change) -> JSONValue {
        var object = JSONObject()
        object["seq"] = .integer(Int64(bitPattern: change.sequence))
        object["soupName"] = .string(change.soupName)
        object["op"] = .string(change.operation.rawValue)
        switch change.operation {
        case .upsert:
            object["entry"] = change.document ?? .null
        case .delete:
            object["id"] = .integer(change.entryID ?? 0)
            if let key = change.key { object["key"] = key }
        case .clear, .removeSoup:
            break
        }
        return .object(object)
    }
}
