// The value an index holds, ordered as SQLite orders values: null, then numbers by numeric
// value, then text by UTF-8 bytes.

/// One indexed value. `integer` and `double` compare by numeric value (`1 == 1.0`), text by
/// its UTF-8 bytes, and `null < numbers < text`.
public enum IndexValue: Sendable, CustomStringConvertible {
    /// No value: JSON null, a missing path, or a value the index type does not take.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A double (never NaN when made from a document).
    case double(Double)
    /// Text, compared by UTF-8 bytes.
    case text(String)

    /// The value an index of `type` on `path` holds for `document`.
    public init(document: JSONValue, path: JSONPath, type: IndexType) {
        if type == .json1 {
            self.init(json1: document.projectWithoutArrays(path))
        } else {
            self.init(projected: document.project(path), type: type)
        }
    }

    /// The value a non-`json1` index of `type` holds for the projected value (`nil`: missing).
    init(projected value: JSONValue?, type: IndexType) {
        guard let value else {
            self = .null
            return
        }
        switch (type, value) {
        case (_, .null):
            self = .null
        case (.string, .string(let text)), (.fullText, .string(let text)):
            self = .text(text)
        case (.string, _), (.fullText, _):
            self = .text(value.jsonText)
        case (.integer, .integer(let integer)):
            self = .integer(integer)
        case (.integer, .double(let double)):
            self = .integer(IndexValue.truncatingClamped(double))
        case (.floating, .integer(let integer)):
            self = .double(Double(integer))
        case (.floating, .double(let double)):
            self = .double(double)
        case (.json1, _):
            self.init(json1: value)
        default:
            self = .null
        }
    }

    /// The value a `json1` index holds for the value found without array traversal.
    init(json1 value: JSONValue?) {
        switch value {
        case nil, .null?: self = .null
        case .bool(let flag)?: self = .integer(flag ? 1 : 0)
        case .integer(let integer)?: self = .integer(integer)
        case .double(let double)?: self = .double(double)
        case .string(let text)?: self = .text(text)
        case .array?, .object?: self = .text(value!.jsonText)
        }
    }

    /// `double` truncated toward zero and clamped to `Int64`'s range (NaN gives 0).
    static func truncatingClamped(_ double: Double) -> Int64 {
        if double.isNaN { return 0 }
        if double >= 9_223_372_036_854_775_807.0 { return .max }
        if double <= -9_223_372_036_854_775_808.0 { return .min }
        return Int64(double.rounded(.towardZero))
    }

    /// A readable form for messages and test output.
    public var description: String {
        switch self {
        case .null: return "null"
        case .integer(let integer): return String(integer)
        case .double(let double): return double.description
        case .text(let text): return JSONValue.string(text).jsonText
        }
    }
}

extension IndexValue: Comparable, Hashable {
    /// The storage class rank: null < numbers < text.
    private var rank: Int {
        switch self {
        case .null: return 0
        case .integer, .double: return 1
        case .text: return 2
        }
    }

    /// Three-way comparison: negative, zero or positive.
    public func compare(_ other: IndexValue) -> Int {
        switch (self, other) {
        case (.integer(let a), .integer(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.double(let a), .double(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.integer(let a), .double(let b)): return IndexValue.compare(a, b)
        case (.double(let a), .integer(let b)): return -IndexValue.compare(b, a)
        case (.text(let a), .text(let b)): return a.utf8Compare(b)
        default: return rank - other.rank
        }
    }

    /// Compares an integer with a double exactly, without rounding the integer to a double.
    static func compare(_ integer: Int64, _ double: Double) -> Int {
        if double.isNaN { return 1 }
        if double >= 9_223_372_036_854_775_808.0 { return -1 }
        if double < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = Int64(double.rounded(.down))
        if integer != whole { return integer < whole ? -1 : 1 }
        return double > Double(whole) ? -1 : 0
    }

    /// Whether `lhs` sorts before `rhs` in SQLite's order.
    public static func < (lhs: IndexValue, rhs: IndexValue) -> Bool { lhs.compare(rhs) < 0 }
    /// Whether the values are equal in SQLite's order (`1 == 1.0`).
    public static func == (lhs: IndexValue, rhs: IndexValue) -> Bool { lhs.compare(rhs) == 0 }

    /// Equal values hash equally: a double with an exact integer value hashes as that integer.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0)
        case .integer(let integer):
            hasher.combine(1)
            hasher.combine(integer)
        case .double(let double):
            if let integer = Int64(exactly: double) {
                hasher.combine(1)
                hasher.combine(integer)
            } else {
                hasher.combine(2)
                hasher.combine(double)
            }
        case .text(let text):
            hasher.combine(3)
            hasher.combine(text.utf8.count)
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }
}
