// Index specs: a path and a type (and optional unique flag and default), validated as the
// protocol says, and written out in the catalog.

import StockpotIndex
import StockpotJSON

/// One index of a soup: the path it indexes, the type of value it keeps, and whether it
/// refuses two entries with the same non-null value.
public struct IndexSpec: Sendable, Hashable {
    /// The dot-separated path (`Owner.Name`).
    public var path: String
    /// The index type.
    public var type: IndexType
    /// Whether two entries may not share a non-null value.
    public var unique: Bool
    /// What the store writes at the path of a document that has no value there.
    public var defaultValue: IndexDefault?
    /// A registered index kind (`IndexKinds`, docs/indexes.md) the store keeps over the
    /// path's values beside the ordered index of `type`, for the planner to use where it is
    /// cheaper. Results never depend on it.
    public var kind: String?

    /// Creates a spec.
    public init(
        path: String, type: IndexType, unique: Bool = false, default defaultValue: IndexDefault? = nil, kind: String? = nil
    ) {
        self.path = path
        self.type = type
        self.unique = unique
        self.defaultValue = defaultValue
        self.kind = kind
    }

    /// The path split into keys.
    public var jsonPath: JSONPath { JSONPath(path) }
}

/// A value the store generates for an index path a document leaves out (docs/changes.md).
public enum IndexDefault: String, Sendable, Hashable {
    /// A fresh RFC 9562 version-7 UUID, as lowercase canonical text: the key sync uses.
    case newID = "newid"
}

/// Limits on names and paths; a value at a limit is accepted, one past it is not.
public struct StoreLimits: Sendable, Hashable {
    /// Longest soup name, in UTF-8 bytes.
    public var soupNameBytes = 255
    /// Longest index path, in UTF-8 bytes.
    public var indexPathBytes = 1_024
    /// Largest document, as compact JSON.
    public var documentBytes = 16 << 20

    /// The protocol's defaults.
    public init() {}
}

extension IndexSpec {
    /// The most full_text specs a soup may have (the columns of its one full-text index).
    static let maximumFullTextSpecs = FullTextIndex.maximumColumnCount

    /// Checks a soup's specs: at least one, each path non-empty and within the limit, no path
    /// twice.
    ///
    /// - Throws: `no_index_specs` or `invalid_index_spec` naming the offending path.
    static func validate(_ specs: [IndexSpec], limits: StoreLimits) throws(StockpotError) {
        guard !specs.isEmpty else {
            throw StockpotError(.noIndexSpecs, "A soup needs at least one index spec.")
        }
        let fullTextCount = specs.count { $0.type == .fullText }
        guard fullTextCount <= maximumFullTextSpecs else {
            throw StockpotError(
                .invalidIndexSpec,
                "A soup may have at most \(maximumFullTextSpecs) full_text specs; this one has \(fullTextCount).")
        }
        var seen = Set<[UInt8]>()  // paths are keys: compared by bytes, not by Unicode equivalence
        for spec in specs {
            guard !spec.path.isEmpty else {
                throw StockpotError(.invalidIndexSpec, "An index spec has an empty path.")
            }
            guard spec.path.utf8.count <= limits.indexPathBytes else {
                throw StockpotError(
                    .invalidIndexSpec,
                    "The index path \"\(spec.path.prefix(40))...\" is \(spec.path.utf8.count) bytes; the limit is \(limits.indexPathBytes).")
            }
            guard seen.insert(Array(spec.path.utf8)).inserted else {
                throw StockpotError(.invalidIndexSpec, "The path \"\(spec.path)\" is indexed twice.")
            }
            if spec.defaultValue == .newID { try validateNewID(spec) }
            if let kind = spec.kind { try validateKind(kind, of: spec) }
        }
    }

    /// Checks a registered kind: a `string`, `integer`, `floating` or `json1` spec naming a
    /// kind this process has registered.
    private static func validateKind(_ kind: String, of spec: IndexSpec) throws(StockpotError) {
        guard spec.type != .fullText else {
            throw StockpotError(
                .invalidIndexSpec, "The path \"\(spec.path)\" is full_text; a registered index kind needs another type.")
        }
        guard IndexKinds.kind(named: kind) != nil else {
            throw StockpotError(
                .unknownIndexKind,
                "The path \"\(spec.path)\" names the index kind \(kind), which is not registered (IndexKinds.register).")
        }
    }

    /// Checks a `newid` default: a string spec whose path does not start at a system field
    /// (whose value the store sets).
    private static func validateNewID(_ spec: IndexSpec) throws(StockpotError) {
        guard spec.type == .string else {
            throw StockpotError(
                .invalidIndexSpec,
                "The path \"\(spec.path)\" has the default newid, which needs the type string, not \(spec.type.rawValue).")
        }
        let first = spec.jsonPath.components[0]
        guard ![SystemField.entryID, SystemField.lastModified, SystemField.created, SystemField.soup].contains(first) else {
            throw StockpotError(
                .invalidIndexSpec, "The path \"\(spec.path)\" starts at the system field \(first); it cannot have the default newid.")
        }
    }

    /// Checks a soup name: non-empty and within the limit.
    package static func validateSoupName(_ name: String, limits: StoreLimits) throws(StockpotError) {
        guard !name.isEmpty else {
            throw StockpotError(.invalidSoupName, "A soup name must not be empty.")
        }
        guard name.utf8.count <= limits.soupNameBytes else {
            throw StockpotError(
                .invalidSoupName,
                "The soup name \"\(name.prefix(40))...\" is \(name.utf8.count) bytes; the limit is \(limits.soupNameBytes).")
        }
    }
}
