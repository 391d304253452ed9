// A soup's catalog record (docs/store.md): its name, id, index specs and the next entry id,
// and what the change feed needs (docs/changes.md), stored as compact JSON in key space 0.

import StockpotIndex
import StockpotJSON

/// What the catalog knows of one soup.
struct SoupRecord: Sendable, Hashable {
    var name: String
    var id: UInt32
    var specs: [IndexSpec]
    /// The id the next inserted entry gets; never goes down, not even when the soup is cleared.
    var nextEntryID: Int64
    /// For a soup made before the store had sequences: the sequence of its version-1 entry
    /// records is this base plus the entry id. `nil` for every later soup.
    var legacySequenceBase: UInt64?
    /// The external id path of the soup's last upsert that used one: a deleted entry's
    /// tombstone keeps its value there, when the soup has no `newid` spec.
    var externalIdPath: String?

    /// The record as compact JSON bytes.
    func encoded() -> [UInt8] {
        let specs: [JSONValue] = self.specs.map { spec in
            var object = JSONObject()
            object["path"] = .string(spec.path)
            object["type"] = .string(spec.type.rawValue)
            if spec.unique { object["unique"] = .bool(true) }
            if let defaultValue = spec.defaultValue { object["default"] = .string(defaultValue.rawValue) }
            if let kind = spec.kind { object["kind"] = .string(kind) }
            return .object(object)
        }
        var record = JSONObject()
        record["name"] = .string(name)
        record["id"] = .integer(Int64(id))
        record["specs"] = .array(specs)
        record["nextEntryId"] = .integer(nextEntryID)
        if let legacySequenceBase { record["legacySequenceBase"] = .integer(Int64(bitPattern: legacySequenceBase)) }
        if let externalIdPath { record["externalIdPath"] = .string(externalIdPath) }
        return JSONWriter.write(.object(record))
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
            var defaultValue: IndexDefault?
            if let given = spec["default"] {
                guard case .string(let text) = given, let known = IndexDefault(rawValue: text) else { return nil }
                defaultValue = known
            }
            var kind: String?
            if let given = spec["kind"] {
                guard case .string(let name) = given, IndexKinds.isValidName(name), type != .fullText else { return nil }
                kind = name
            }
            specs.append(
                IndexSpec(path: path, type: type, unique: spec["unique"] == .bool(true), default: defaultValue, kind: kind))
        }
        // A record that could never have been written (an index layout the store cannot
        // build) is damage, not a soup.
        guard specs.count(where: { $0.type == .fullText }) <= IndexSpec.maximumFullTextSpecs else { return nil }
        self.init(name: name, id: soupID, specs: specs, nextEntryID: nextEntryID)
        switch object["legacySequenceBase"] {
        case nil: break
        case .integer(let base)? where base >= 0: legacySequenceBase = UInt64(base)
        default: return nil
        }
        switch object["externalIdPath"] {
        case nil: break
        case .string(let path)?: externalIdPath = path
        default: return nil
        }
    }

    init(name: String, id: UInt32, specs: [IndexSpec], nextEntryID: Int64) {
        self.name = name
        self.id = id
        self.specs = specs
        self.nextEntryID = nextEntryID
    }
}
