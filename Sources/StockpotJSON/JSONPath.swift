// Index paths (`Owner.Name`) and projecting them out of a document, as
// docs/semantics.md "Paths" defines: arrays are mapped element-wise.

/// A dot-separated path of object keys, such as `Owner.Name`. There is no escaping: the text
/// is split on every `.`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// The object keys, outermost first.
    public let components: [String]

    /// Splits `text` on `.`; empty components are kept (`a..b` looks up the key `""`).
    public init(_ text: String) {
        components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// Creates a path from its components.
    public init(components: [String]) {
        self.components = components
    }

    /// The path as written, components joined with `.`.
    public var text: String { components.joined(separator: ".") }

    /// The path as written.
    public var description: String { text }
}

extension JSONValue {
    /// The value at `path`, or `nil` when it is missing.
    ///
    /// Through an object the next key is taken; through an array the rest of the path is
    /// applied to every element, missing results are dropped, and what remains is returned as
    /// an array (nested arrays give nested arrays; nothing left means missing). A path that ends
    /// on an object or array yields it. `{"a": null}` gives `.null` for `a`, `nil` for `b`.
    public func project(_ path: JSONPath) -> JSONValue? {
        project(path.components[...])
    }

    func project(_ keys: ArraySlice<String>) -> JSONValue? {
        guard let key = keys.first else { return self }
        switch self {
        case .object(let object):
            return object[key]?.project(keys.dropFirst())
        case .array(let elements):
            let projected = elements.compactMap { $0.project(keys) }
            return projected.isEmpty ? nil : .array(projected)
        default:
            return nil
        }
    }

    /// The value at `path` walking objects only: `nil` when the path is missing or passes
    /// through an array (how `json1` indexes and `json_extract` see documents).
    public func projectWithoutArrays(_ path: JSONPath) -> JSONValue? {
        var current = self
        for key in path.components {
            guard case .object(let object) = current, let next = object[key] else {
                return nil
            }
            current = next
        }
        return current
    }
}
