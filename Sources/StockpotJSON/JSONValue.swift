// The JSON value tree: what a document is once it has been read.
// Cheap to copy (every payload is a copy-on-write buffer); integers and doubles stay distinct.

/// A JSON value that keeps object key order and tells integers from doubles.
///
/// A number is an ``integer`` when it was written without fraction or exponent and fits a
/// signed 64-bit integer; every other number is a ``double``. Copies share storage, so passing a
/// value around costs a reference count, not a deep copy.
///
/// `JSONValue` is a value type and safe to share across threads.
public enum JSONValue: Sendable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits `Int64`.
    case integer(Int64)
    /// Any other number. Never NaN or infinite when produced by ``JSONReader``.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, with its keys in the order they were written.
    case object(JSONObject)
}

extension JSONValue {
    /// The object payload, or `nil` when the value is not an object.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The array payload, or `nil` when the value is not an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// The string payload, or `nil` when the value is not a string.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The integer payload, or `nil` when the value is not an integer.
    public var integerValue: Int64? {
        if case .integer(let integer) = self { return integer }
        return nil
    }

    /// The value as a double when it is any number (an integer converted), else `nil`.
    public var numberValue: Double? {
        switch self {
        case .integer(let integer): return Double(integer)
        case .double(let double): return double
        default: return nil
        }
    }

    /// `true` when the value is JSON `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member `key` of an object, or `nil` when this is not an object or has no such key.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// Creates JSON `null`.
    public init(nilLiteral: ()) { self = .null }
    /// Creates a boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates an integer.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// Creates a double.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// Creates a string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates an array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Creates an object whose keys keep the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

extension JSONValue: Hashable {
    /// Values are equal when they are the same kind with equal payloads; strings compare by
    /// their UTF-8 bytes (JSON does not normalize), numbers by IEEE equality within a kind, so
    /// `.integer(1) != .double(1)`.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.string(let a), .string(let b)): return a.utf8Equals(b)
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }

    /// Hashes the kind and payload consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let flag): hasher.combine(1); hasher.combine(flag)
        case .integer(let integer): hasher.combine(2); hasher.combine(integer)
        case .double(let double): hasher.combine(3); hasher.combine(double)
        case .string(var string):
            hasher.combine(4)
            string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        case .array(let elements): hasher.combine(5); hasher.combine(elements)
        case .object(let object): hasher.combine(6); hasher.combine(object)
        }
    }
}
