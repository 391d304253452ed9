// The entry operations of the exec protocol: upsertSoupEntries, retrieveSoupEntries and
// removeFromSoup (by ids, or the first page of a query spec).

import Stockpot
import StockpotJSON

extension ExecSession {
    func upsertSoupEntries(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let name = try soupName(arguments)
        guard arguments.contains("entries") else { throw arguments.missing("entries", "an array") }
        // The entries reach the store as their JSON text, never as a value tree.
        let entries = try arguments.elementTexts("entries", maxCount: budgets.maxRequestEntries)
        let externalIdPath = try arguments.optionalString("externalIdPath")
        let stored = try write { (transaction) throws(StockpotError) in
            try transaction.upsert(jsonSlices: entries, into: name, externalIdPath: externalIdPath)
        }
        return .array(stored.map { .object(JSONObject(canonicalText: $0)) })
    }

    func retrieveSoupEntries(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let name = try soupName(arguments)
        let ids = try arguments.integers("entryIds")
        // One view for every part, so the answer is one state of the store; the deadline is
        // checked after each part.
        let view = store.view()
        var entries: [JSONValue] = []
        entries.reserveCapacity(ids.count)
        var start = ids.startIndex
        repeat {
            let end = min(start + Self.idsPerPart, ids.endIndex)
            entries.append(contentsOf: try view.retrieve(Array(ids[start..<end]), from: name))
            try checkDeadline()
            start = end
        } while start < ids.endIndex
        return .array(entries)
    }

    /// Ids a retrieve reads between two looks at the deadline.
    static let idsPerPart = 1_024

    func removeFromSoup(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let name = try soupName(arguments)
        switch (arguments.contains("entryIds"), arguments.contains("querySpec")) {
        case (true, true):
            throw StockpotError(.badRequest, "Give either \"entryIds\" or \"querySpec\", not both.")
        case (false, false):
            throw StockpotError(.badRequest, "The argument \"entryIds\" or \"querySpec\" is missing.")
        case (true, false):
            let ids = try arguments.integers("entryIds")
            try write { (transaction) throws(StockpotError) in try transaction.delete(ids, from: name) }
        case (false, true):
            let spec = try Self.querySpec(arguments)
            try write { (transaction) throws(StockpotError) in try transaction.deleteFirstPage(of: spec, in: name) }
        }
        return .null
    }

    /// Runs `body` in one write transaction that commits only if the request's deadline has
    /// not passed by then (`resource_limit`, nothing written, otherwise).
    @discardableResult
    func write<R>(_ body: (WriteTransaction) throws(StockpotError) -> R) throws(StockpotError) -> R {
        try checkDeadline()
        do {
            return try store.write { transaction throws -> R in
                let result = try body(transaction)
                try checkDeadline()
                return result
            }
        } catch let error as StockpotError {
            throw error
        } catch {
            throw StockpotError(.internal, "Unexpected error: \(error).")
        }
    }
}
