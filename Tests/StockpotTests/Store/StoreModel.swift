// A plain in-memory model of a store for the model-based tests: soups as dictionaries of
// documents, with the protocol's upsert rules, unique checks and id high-water marks spelled
// out directly, and the orders and full-text hits the indexes must give.

import Stockpot

struct StoreModel {
    struct Soup {
        var specs: [IndexSpec]
        var nextID: Int64 = 1
        /// Documents with system fields; `_soupLastModifiedDate` is kept as 0.
        var documents: [Int64: JSONObject] = [:]
    }

    var soups: [String: Soup] = [:]

    var names: [String] { soups.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    mutating func register(_ name: String, _ specs: [IndexSpec]) -> StockpotError.Code? {
        if name.isEmpty { return .invalidSoupName }
        if soups[name] != nil { return nil }
        if specs.isEmpty { return .noIndexSpecs }
        if Set(specs.map(\.path)).count != specs.count { return .invalidIndexSpec }
        soups[name] = Soup(specs: specs)
        return nil
    }

    /// Applies an upsert; on failure nothing changes.
    mutating func upsert(_ entries: [JSONValue], into name: String, externalIdPath: String?) -> StockpotError.Code? {
        guard var soup = soups[name] else { return .soupNotFound }
        let external = externalIdPath == "_soupEntryId" ? nil : externalIdPath
        var externalSpec: IndexSpec?
        if let external {
            guard let spec = soup.specs.first(where: { $0.path == external }) else { return .externalIdNotIndexed }
            externalSpec = spec
        }
        for entry in entries {
            guard case .object(var object) = entry else { return .invalidEntry }
            for field in ["_soupEntryId", "_soupLastModifiedDate"] {
                switch object[field] {
                case nil, .null?, .integer?: break
                default: return .invalidEntry
                }
            }
            var id: Int64
            if let spec = externalSpec {
                let value = IndexValue(document: entry, path: spec.jsonPath, type: spec.type)
                if case .null = value { return .externalIdMissing }
                let matches = soup.documents.filter { Self.value(of: .object($0.value), spec) == value }.map(\.key)
                if matches.count > 1 { return .externalIdNotUnique }
                if let match = matches.first {
                    id = match
                } else {
                    id = soup.nextID
                    soup.nextID += 1
                }
            } else if case .integer(let given)? = object["_soupEntryId"] {
                guard soup.documents[given] != nil else { return .entryNotFound }
                id = given
            } else {
                id = soup.nextID
                soup.nextID += 1
            }
            object["_soupEntryId"] = .integer(id)
            object["_soupLastModifiedDate"] = .integer(0)
            for spec in soup.specs where spec.unique {
                let value = Self.value(of: .object(object), spec)
                if case .null = value { continue }
                if soup.documents.contains(where: { $0.key != id && Self.value(of: .object($0.value), spec) == value }) {
                    return .uniqueViolation
                }
            }
            soup.documents[id] = object
        }
        soups[name] = soup
        return nil
    }

    mutating func delete(_ ids: [Int64], from name: String) -> StockpotError.Code? {
        guard soups[name] != nil else { return .soupNotFound }
        for id in ids { soups[name]!.documents[id] = nil }
        return nil
    }

    mutating func clear(_ name: String) -> StockpotError.Code? {
        guard soups[name] != nil else { return .soupNotFound }
        soups[name]!.documents = [:]
        return nil
    }

    mutating func remove(_ name: String) {
        soups[name] = nil
    }

    mutating func alter(_ name: String, _ specs: [IndexSpec]) -> StockpotError.Code? {
        guard let soup = soups[name] else { return .soupNotFound }
        if specs.isEmpty { return .noIndexSpecs }
        if Set(specs.map(\.path)).count != specs.count { return .invalidIndexSpec }
        for spec in specs where spec.unique {
            let values = soup.documents.values.map { Self.value(of: .object($0), spec) }.filter {
                if case .null = $0 { return false }
                return true
            }
            for (i, a) in values.enumerated() where values[(i + 1)...].contains(where: { $0 == a }) {
                return .uniqueViolation
            }
        }
        soups[name]!.specs = specs
        return nil
    }

    static func value(of document: JSONValue, _ spec: IndexSpec) -> IndexValue {
        IndexValue(document: document, path: spec.jsonPath, type: spec.type)
    }

    /// Entry ids ordered by `spec`'s values, ties by id.
    func order(of name: String, by spec: IndexSpec) -> [Int64] {
        let soup = soups[name]!
        return soup.documents.map { (id: $0.key, value: Self.value(of: .object($0.value), spec)) }
            .sorted { a, b in
                let order = a.value.compare(b.value)
                return order != 0 ? order < 0 : a.id < b.id
            }.map(\.id)
    }

    /// Ids of the entries whose text at `spec` holds `token` (ASCII words only in these tests).
    func fullTextHits(of name: String, spec: IndexSpec, token: String) -> [Int64] {
        let soup = soups[name]!
        return soup.documents.compactMap { id, object -> Int64? in
            guard case .text(let text) = Self.value(of: .object(object), spec) else { return nil }
            let tokens = text.lowercased().split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
            return tokens.contains(Substring(token)) ? id : nil
        }.sorted()
    }
}
