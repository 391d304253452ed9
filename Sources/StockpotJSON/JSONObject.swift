// An ordered JSON object: members in the order they were written, looked up by key.

/// A JSON object that keeps its members in insertion order.
///
/// Lookup by key is a linear scan, which is the fastest choice for the small objects documents
/// are made of. ``JSONReader`` never produces an object with a repeated key.
///
/// `JSONObject` is a value type and safe to share across threads.
public struct JSONObject: Sendable {
    /// Keys and values in parallel arrays: what the reader builds and what mutation works on.
    struct Members: Sendable {
        var keys: [String]
        var values: [JSONValue]

        func index(forKey key: String) -> Int? {
            keys.firstIndex { $0.utf8Equals(key) }
        }

        func value(forKey key: String) -> JSONValue? {
            guard let index = index(forKey: key) else { return nil }
            return values[index]
        }
    }

    private enum Storage: Sendable {
        case members(Members)
        /// Canonical text, read on demand (see ``init(canonicalText:)``).
        case encoded(EncodedJSONObject)
    }

    private var storage: Storage

    /// Creates an empty object.
    public init() {
        storage = .members(Members(keys: [], values: []))
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
        storage = .members(Members(keys: keys, values: values))
    }

    /// An object that is the object `text` holds, read only as far as it is used: a member
    /// looked up by key is found by scanning the text; the whole tree is built, once, when
    /// something needs every member (``keys``, ``values``, equality, a change). Writing the
    /// object out copies the text.
    ///
    /// - Precondition: `text` is exactly what ``JSONWriter/write(_:)`` writes for an object
    ///   ``JSONReader`` accepts (a stored document: validated when written, checked by
    ///   checksum when read). Anything else is a programmer error and traps when first read.
    package init(canonicalText text: [UInt8]) {
        storage = .encoded(EncodedJSONObject(bytes: text[...]))
    }

    /// An object that is the object `text` holds, read only as far as it is used; see
    /// the array initializer. The object keeps the whole buffer `text` is a slice
    /// of alive (a query page's documents share one).
    package init(canonicalText text: ArraySlice<UInt8>) {
        storage = .encoded(EncodedJSONObject(bytes: text))
    }

    /// The object's text when it is still the canonical text it was made from.
    package var canonicalText: [UInt8]? {
        canonicalTextSlice.map { Array($0) }
    }

    /// ``canonicalText`` without copying it out of the buffer it shares.
    package var canonicalTextSlice: ArraySlice<UInt8>? {
        if case .encoded(let encoded) = storage { return encoded.bytes }
        return nil
    }

    /// The keys and values, reading the text of an encoded object.
    var resolvedMembers: Members {
        switch storage {
        case .members(let members): return members
        case .encoded(let encoded): return encoded.members
        }
    }

    /// The keys, in order.
    public var keys: [String] { resolvedMembers.keys }

    /// The values, in the order of ``keys``.
    public var values: [JSONValue] { resolvedMembers.values }

    /// The number of members.
    public var count: Int { resolvedMembers.keys.count }

    /// `true` when the object has no members.
    public var isEmpty: Bool {
        switch storage {
        case .members(let members): return members.keys.isEmpty
        case .encoded(let encoded): return encoded.bytes.count == 2  // "{}"
        }
    }

    /// The members as key-value pairs, in order.
    public var members: Zip2Sequence<[String], [JSONValue]> {
        let members = resolvedMembers
        return zip(members.keys, members.values)
    }

    /// The position of the member whose key has exactly the UTF-8 bytes of `key`. JSON keys
    /// are compared by bytes, never by Unicode canonical equivalence.
    public func index(forKey key: String) -> Int? {
        resolvedMembers.index(forKey: key)
    }

    /// The value for `key`; setting appends a new key or replaces the value in place, and
    /// setting `nil` removes the member.
    ///
    /// - Complexity: O(n) in the number of members (for an object read from text and not yet
    ///   built, in the bytes before the member).
    public subscript(key: String) -> JSONValue? {
        get {
            switch storage {
            case .members(let members): return members.value(forKey: key)
            case .encoded(let encoded): return encoded.member(key)
            }
        }
        set {
            mutateMembers { members in
                if let index = members.index(forKey: key) {
                    if let newValue {
                        members.values[index] = newValue
                    } else {
                        members.keys.remove(at: index)
                        members.values.remove(at: index)
                    }
                } else if let newValue {
                    members.keys.append(key)
                    members.values.append(newValue)
                }
            }
        }
    }

    /// Removes the member `key` and returns its value, or `nil` when there was none.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        mutateMembers { members in
            guard let index = members.index(forKey: key) else { return nil }
            members.keys.remove(at: index)
            return members.values.remove(at: index)
        }
    }

    /// Runs `body` on the members, built from the text first if need be, without copying
    /// the arrays: the storage holds no other reference to them while `body` runs.
    private mutating func mutateMembers<Result>(_ body: (inout Members) -> Result) -> Result {
        var members = resolvedMembers
        storage = .members(Members(keys: [], values: []))
        defer { storage = .members(members) }
        return body(&members)
    }
}

extension JSONObject: Hashable {
    /// Objects are equal when they have the same keys (by UTF-8 bytes) with equal values, in
    /// the same order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        if let left = lhs.canonicalTextSlice, let right = rhs.canonicalTextSlice, left == right { return true }
        let (lhs, rhs) = (lhs.resolvedMembers, rhs.resolvedMembers)
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
        let members = resolvedMembers
        hasher.combine(members.keys.count)
        for position in 0..<members.keys.count {
            var key = members.keys[position]
            key.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            hasher.combine(members.values[position])
        }
    }
}
