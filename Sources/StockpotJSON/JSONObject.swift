// An ordered JSON object: members in the order they were written, looked up by key.

/// A JSON object that keeps its members in insertion order.
///
/// Lookup by key is a linear scan, which is the fastest choice for the small objects documents
/// are made of. ``JSONReader`` never produces an object with a repeated key.
///
/// `JSONObject` is a value type and safe to share across threads.
public struct JSONObject: Sendable {
    /// The keys, in order.
    public private(set) var keys: [String]
    /// The values, in the order of ``keys``.
    public private(set) var values: [JSONValue]

    /// Creates an empty object.
    public init() {
        keys = []
        values = []
    }

    /// Creates an object from key-value pairs, in order. A repeated key keeps its first
    /// position and its last value.
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        self.init()
        for (key, value) in pairs { self[key] = value }
    }

    /// Creates an object from parallel arrays the caller guarantees to be the same length and
    /// free of repeated keys (the reader's fast path).
    init(uncheckedKeys keys: [String], values: [JSONValue]) {
        self.keys = keys
        self.values = values
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// `true` when the object has no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// The members as key-value pairs, in order.
    public var members: Zip2Sequence<[String], [JSONValue]> { zip(keys, values) }

    /// The position of the member whose key has exactly the UTF-8 bytes of `key`. JSON keys
    /// are compared by bytes, never by Unicode canonical equivalence.
    public func index(forKey key: String) -> Int? {
        keys.firstIndex { $0.utf8Equals(key) }
    }

    /// The value for `key`; setting appends a new key or replaces the value in place, and
    /// setting `nil` removes the member.
    ///
    /// - Complexity: O(n) in the number of members.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let index = index(forKey: key) else { return nil }
            return values[index]
        }
        set {
            if let index = index(forKey: key) {
                if let newValue {
                    values[index] = newValue
                } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Removes the member `key` and returns its value, or `nil` when there was none.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let index = index(forKey: key) else { return nil }
        keys.remove(at: index)
        return values.remove(at: index)
    }
}

extension JSONObject: Hashable {
    /// Objects are equal when they have the same keys (by UTF-8 bytes) with equal values, in
    /// the same order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.keys.count == rhs.keys.count else { return false }
        for position in 0..<lhs.keys.count {
            guard lhs.keys[position].utf8Equals(rhs.keys[position]),
                lhs.values[position] == rhs.values[position]
            else { return false }
        }
        return true
    }

    /// Hashes the keys' bytes and the values, in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(keys.count)
        for position in 0..<keys.count {
            var key = keys[position]
            key.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            hasher.combine(values[position])
        }
    }
}
