// Generated keys (docs/changes.md, "UUID keys"): a soup spec with the default `newid` gets a
// fresh version-7 UUID in every upserted document that has no value at its path.

import StockpotCore
import StockpotIndex
import StockpotJSON

extension WriteTransaction {
    /// `entries` with a fresh UUID written at each `newid` path that a document leaves
    /// missing or null; documents that have a value there are returned as they are.
    ///
    /// - Throws: `invalid_entry` when the path passes through a value that is not an object.
    func generatingKeys(_ entries: [IncomingDocument?], in soup: SoupState) throws(StockpotError) -> [IncomingDocument?] {
        let specs = soup.record.specs.filter { $0.defaultValue == .newID }
        guard !specs.isEmpty else { return entries }
        let extractors = specs.map { JSONFieldExtractor(fields: [IndexField(path: $0.jsonPath, type: .string)]) }
        var result = entries
        for (position, entry) in entries.enumerated() {
            guard let entry, entry.isObject else { continue }
            var object: JSONObject?
            for (spec, extractor) in zip(specs, extractors) {
                guard try entry.indexValue(extractor).isNull else { continue }
                var changed: JSONObject
                if let object { changed = object } else { changed = try entry.tree(position: position) }
                try Self.setKey(UUIDv7.next(), at: spec.jsonPath.components[...], in: &changed, spec: spec, position: position)
                object = changed
            }
            if let object { result[position] = .object(object) }
        }
        return result
    }

    /// Writes `key` at `path` in `object`, making the objects on the way that are missing
    /// (or null).
    private static func setKey(
        _ key: String, at path: ArraySlice<String>, in object: inout JSONObject, spec: IndexSpec, position: Int
    ) throws(StockpotError) {
        let name = path.first!
        guard path.count > 1 else {
            object[name] = .string(key)
            return
        }
        var inner: JSONObject
        switch object[name] {
        case nil, .null?: inner = JSONObject()
        case .object(let existing)?: inner = existing
        default:
            throw StockpotError(
                .invalidEntry,
                "Entry \(position) of the batch has no value at the newid path \"\(spec.path)\", and its member \"\(name)\" is not an object, so no key can be written there."
            )
        }
        try setKey(key, at: path.dropFirst(), in: &inner, spec: spec, position: position)
        object[name] = .object(inner)
    }
}

extension IncomingDocument {
    /// The document as a tree (parsing bytes that were validated already).
    ///
    /// - Throws: `invalid_entry` when it is not an object.
    func tree(position: Int) throws(StockpotError) -> JSONObject {
        switch self {
        case .object(let object):
            return object
        case .bytes(let bytes, _):
            guard case .object(let object)? = try? JSONReader.parse(Array(bytes), limits: Self.scanLimits) else {
                throw StockpotError(.invalidEntry, "Entry \(position) of the batch is not a JSON object.")
            }
            return object
        }
    }
}
