// What a query workload's caller does with each document it gets back, done the same way on
// both sides, so that a side that hands out documents read on demand (Stockpot) and one that
// hands out parsed trees (SmartStore over SQLite) are compared on the same use.

import Foundation  // the trees of --baseline-json foundation
import StockpotJSON

/// How each document row of a query is used.
enum DocumentUse {
    /// Reads the row's `Name`, as a list of results shows one field per row.
    case readName
    /// Reads every value of the row, nested ones included, as a caller that needs all of it.
    case walkTree

    /// Uses `document`; returns something derived from what was read, for the sink.
    func use(_ document: JSONValue) -> UInt64 {
        switch self {
        case .readName:
            guard case .string(let name) = document["Name"] else { return 0 }
            return UInt64(name.utf8.count)
        case .walkTree:
            return Self.leaves(of: document)
        }
    }

    /// Uses a document parsed by `JSONSerialization` (`--baseline-json foundation`) the same way.
    func use(foundation document: Any) -> UInt64 {
        switch self {
        case .readName:
            guard let name = (document as? [String: Any])?["Name"] as? String else { return 0 }
            return UInt64(name.utf8.count)
        case .walkTree:
            return Self.leaves(foundation: document)
        }
    }

    private static func leaves(foundation value: Any) -> UInt64 {
        if let object = value as? [String: Any] {
            return object.values.reduce(UInt64(object.count)) { $0 + leaves(foundation: $1) }
        }
        if let array = value as? [Any] { return array.reduce(0) { $0 + leaves(foundation: $1) } }
        if let text = value as? String { return UInt64(text.utf8.count & 1) + 1 }
        return 1
    }

    /// The number of scalar values in `value`, reading each.
    private static func leaves(of value: JSONValue) -> UInt64 {
        switch value {
        case .array(let elements): return elements.reduce(0) { $0 + leaves(of: $1) }
        case .object(let object): return object.values.reduce(UInt64(object.count)) { $0 + leaves(of: $1) }
        case .string(let text): return UInt64(text.utf8.count & 1) + 1
        case .null, .bool, .integer, .double: return 1
        }
    }
}
