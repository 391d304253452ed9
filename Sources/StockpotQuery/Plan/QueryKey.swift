// Query keys converted to the index's type before comparing (docs/semantics.md, "Query
// types"), the way SQLite's column affinity converts them.

import StockpotJSON

/// Conversion of `exact` and `range` keys.
package enum QueryKey {
    /// The value `key` compares as against an index of `type` (nil: a path with no index,
    /// compared as a `json1` index would be); nil when the key is null, which matches nothing.
    package static func value(_ key: JSONValue, for type: IndexType?) -> IndexValue? {
        switch (type, key) {
        case (_, .null):
            return nil
        case (.string?, _), (.fullText?, _):
            if case .string(let text) = key { return .text(text) }
            return .text(key.jsonText)
        case (.integer?, _), (.floating?, _):
            switch key {
            case .integer(let integer): return .integer(integer)
            case .double(let double): return .double(double)
            case .string(let text): return numericValue(of: text) ?? .text(text)
            default: return .text(key.jsonText)
            }
        case (.json1?, _), (nil, _):
            switch key {
            case .integer(let integer): return .integer(integer)
            case .double(let double): return .double(double)
            case .string(let text): return .text(text)
            case .bool(let flag): return .integer(flag ? 1 : 0)
            default: return .text(key.jsonText)
            }
        }
    }

    /// The number a numeric-affinity column makes of `text`: a well-formed integer or real
    /// literal, white space around it allowed; nil for any other text.
    package static func numericValue(of text: String) -> IndexValue? {
        let trimmed = text.utf8.drop { isSpace($0) }.reversed().drop { isSpace($0) }.reversed()
        guard !trimmed.isEmpty,
            trimmed.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E || $0 | 0x20 == 0x65 })
        else { return nil }
        let literal = String(decoding: trimmed, as: UTF8.self)
        if let integer = Int64(literal) { return .integer(integer) }
        // A digit must come before any exponent, and Double() must take all of it.
        guard trimmed.contains(where: { $0 >= 0x30 && $0 <= 0x39 }), let double = Double(literal), double.isFinite
        else { return nil }
        return .double(double)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }
}
