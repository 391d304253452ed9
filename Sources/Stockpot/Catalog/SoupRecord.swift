// A soup's catalog record (docs/store.md): its name, id, index specs and the next entry id,
// stored as compact JSON in key space 0.

import StockpotJSON

/// What the catalog knows of one soup.
struct SoupRecord: Sendable, Hashable {
    var name: String
    var id: UInt32
    var specs: [IndexSpec]
    /// The id the next inserted entry gets; never goes down, not even when the soup is cleared.
    var nextEntryID: Int64

    /// The record as compact JSON bytes.
    func encoded() -> [UInt8] {
        let specs: [JSONValue] = self.specs.map { spec in
            var object = JSONObject()
            object["path"] = .string(spec.path)
            object["type"] = .string(spec.type.rawValue)
            if spec.unique { object["unique"] = .bool(true) }
            return .object(object)
        }
        let record: JSONValue = [
            "name": .string(name), "id": .integer(Int64(id)), "specs": .array(specs),
            "nextEntryId": .integer(nextEntryID),
        ]
        return JSONWriter.write(record)
    }

    /// Reads a record; `nil` when the bytes are not a well-formed catalog record.
    init?(decoding bytes: [UInt8]) {
        guard case .object(let object)? = try? JSONReader.parse(bytes),
            case .string(let name)? = object["name"],
            case .integer(let id)? = object["id"], let soupID = UInt32(exactly: id),
            case .array(let specValues)? = object["specs"],
            case .integer(let nextEntryID)? = object["nextEntryId"]
        else { return nil }
        var specs: [IndexSpec] = []
        for value in specValues {
            guard case .object(let spec) = value, case .string(let path)? = spec["path"],
                case .string(let typeName)? = spec["type"], let type = IndexType(parsing: typeName)
            else { return nil }
            specs.append(IndexSpec(path: path, type: type, unique: spec["unique"] == .bool(true)))
        }
        // A record that could never have been written (an index layout the store cannot
        // build) is damage, not a soup.
        guard specs.count(where: { $0.type == .fullText }) <= IndexSpec.maximumFullTextSpecs else { return nil }
        self.init(name: name, id: soupID, specs: specs, nextEntryID: nextEntryID)
    }

    init(name: String, id: UInt32, specs: [IndexSpec], nextEntryID: Int64) {
        self.name = name
        self.id = id
        self.specs = specs
        self.nextEntryID = nextEntryID
    }
}
