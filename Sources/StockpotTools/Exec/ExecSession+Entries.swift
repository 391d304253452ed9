// The entry operations of the exec protocol: upsertSoupEntries, retrieveSoupEntries and
// removeFromSoup (by ids, or the first page of a query spec).

import Stockpot
import StockpotJSON

extension ExecSession {
    func upsertSoupEntries(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let name = try Self.soupName(arguments)
        guard arguments.contains("entries") else { throw arguments.missing("entries", "an array") }
        // The entries reach the store as their JSON text, never as a value tree.
        let entries = try arguments.elementTexts("entries")
        let externalIdPath = try arguments.optionalString("externalIdPath")
        let stored = try store.upsert(json: entries, into: name, externalIdPath: externalIdPath)
        return .array(stored.map { .object(JSONObject(canonicalText: $0)) })
    }

    func retrieveSoupEntries(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let name = try Self.soupName(arguments)
        return .array(try store.retrieve(try arguments.integers("entryIds"), from: name))
    }

    func removeFromSoup(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let name = try Self.soupName(arguments)
        switch (arguments.contains("entryIds"), arguments.contains("querySpec")) {
        case (true, true):
            throw StockpotError(.badRequest, "Give either \"entryIds\" or \"querySpec\", not both.")
        case (false, false):
            throw StockpotError(.badRequest, "The argument \"entryIds\" or \"querySpec\" is missing.")
        case (true, false):
            try store.delete(try arguments.integers("entryIds"), from: name)
        case (false, true):
            let spec = try Self.querySpec(arguments)
            try store.deleteFirstPage(of: spec, in: name)
        }
        return .null
    }
}
