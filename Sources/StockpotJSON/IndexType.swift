// The five index spec types and the value each holds for a document
// (docs/semantics.md, "The value an index holds").

/// The type of an index spec: what value an index keeps for each document.
public enum IndexType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The value as text: strings as they are, other values as their JSON text.
    case string
    /// Numbers truncated toward zero and clamped to 64 bits; anything else null.
    case integer
    /// Numbers as doubles; anything else null.
    case floating
    /// Like ``string``, and tokenized for full-text search.
    case fullText = "full_text"
    /// The value as SQLite's `json_extract` gives it: no array traversal, booleans as 1 and 0.
    case json1

    /// The type named `name`, ignoring case (`"String"` is ``string``); `nil` when unknown.
    public init?(parsing name: String) {
        self.init(rawValue: name.lowercased())
    }

    /// The type's name in lower case, as the protocol reports it.
    public var description: String { rawValue }
}

/// A path and the type of index kept on it.
public struct IndexField: Sendable, Hashable {
    /// The path indexed.
    public var path: JSONPath
    /// The index type.
    public var type: IndexType

    /// Creates a field.
    public init(path: JSONPath, type: IndexType) {
        self.path = path
        self.type = type
    }
}
