// What a client can see of a store through the protocol, to check that a failed request
// changed nothing: soup names, each soup's specs and entries, and the next entry id.

import StockpotJSON

extension ExecProcess {
    /// Every soup's name, specs and entries (in `_soupEntryId` order).
    func snapshot() throws -> JSONValue {
        let names = try result(["op": "getAllSoupNames"])
        var soups: [JSONValue] = []
        for name in names.arrayValue ?? [] {
            let specs = try result(["op": "getSoupIndexSpecs", "soupName": name])
            let cursor = try result([
                "op": "querySoup", "soupName": name,
                "querySpec": ["queryType": "all", "pageSize": 1_000_000],
            ])
            try result(["op": "closeCursor", "cursorId": cursor["cursorId"] ?? .null])
            soups.append(["name": name, "specs": specs, "entries": cursor["currentPageOrderedEntries"] ?? .null])
        }
        return .array(soups)
    }

    /// Inserts an empty probe entry into `soup` and returns the id it got: the id the soup was
    /// going to hand out next.
    func nextEntryId(in soup: String) throws -> Int64? {
        let stored = try result(["op": "upsertSoupEntries", "soupName": .string(soup), "entries": [[:]]])
        return stored[0]?["_soupEntryId"]?.integerValue
    }
}

extension JSONValue {
    /// The element at `position` of an array, or `nil`.
    subscript(position: Int) -> JSONValue? {
        guard let array = arrayValue, array.indices.contains(position) else { return nil }
        return array[position]
    }
}
