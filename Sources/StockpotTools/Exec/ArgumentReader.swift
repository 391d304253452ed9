// Typed access to a request's arguments (or a query spec's fields): a missing required
// argument or one of the wrong JSON type is `bad_request`, naming the argument.

import Stockpot
import StockpotJSON

/// The members of a request object, read by name with the JSON type each must have.
///
/// An optional argument given as JSON `null` counts as absent. Messages name the argument
/// with its prefix (`querySpec.pageSize`).
struct ArgumentReader {
    /// The object read.
    let object: JSONObject
    /// Put before member names in messages (`"querySpec."`), empty at the top level.
    let prefix: String
    /// Members kept as their JSON text (arrays, checked already), read only when asked for:
    /// a large `entries` array reaches the store as bytes without becoming a value tree.
    let deferred: DeferredMembers

    init(_ object: JSONObject, prefix: String = "", deferred: DeferredMembers = DeferredMembers()) {
        self.object = object
        self.prefix = prefix
        self.deferred = deferred
    }

    /// Whether the member `name` is present and not null.
    func contains(_ name: String) -> Bool {
        if deferred.text(name) != nil { return true }
        guard let value = object[name] else { return false }
        return !value.isNull
    }

    /// The member `name`, or `nil` when it is absent or null.
    func value(_ name: String) -> JSONValue? {
        if let value = deferred.value(name) { return value }
        guard let value = object[name], !value.isNull else { return nil }
        return value
    }

    /// The elements of the required array `name`, each as its JSON text, without reading them
    /// into values when the member was deferred (then each is a slice of the request line).
    ///
    /// - Throws: `bad_request` when it is missing or not an array, `limit_exceeded` when it
    ///   has more than `maxCount` elements (counted before any is copied).
    func elementTexts(_ name: String, maxCount: Int = .max) throws(StockpotError) -> [ArraySlice<UInt8>] {
        if let ranges = deferred.elementRanges(name) {
            try checkCount(name, ranges.count, maxCount)
            return ranges.map { deferred.bytes($0) }
        }
        let elements = try array(name)
        try checkCount(name, elements.count, maxCount)
        return elements.map { JSONWriter.write($0)[...] }
    }

    private func checkCount(_ name: String, _ count: Int, _ maxCount: Int) throws(StockpotError) {
        guard count <= maxCount else {
            throw StockpotError(
                .limitExceeded, "The argument \"\(prefix)\(name)\" has \(count) elements; the limit is \(maxCount) per request.")
        }
    }

    /// The required string `name`.
    func string(_ name: String) throws(StockpotError) -> String {
        guard let value = try optionalString(name) else { throw missing(name, "a string") }
        return value
    }

    /// The optional string `name`.
    func optionalString(_ name: String) throws(StockpotError) -> String? {
        guard let value = value(name) else { return nil }
        guard let string = value.stringValue else { throw wrongType(name, "a string", value) }
        return string
    }

    /// The required integer `name`.
    func integer(_ name: String) throws(StockpotError) -> Int64 {
        guard let value = try optionalInteger(name) else { throw missing(name, "an integer") }
        return value
    }

    /// The optional integer `name`.
    func optionalInteger(_ name: String) throws(StockpotError) -> Int64? {
        guard let value = value(name) else { return nil }
        guard let integer = value.integerValue else { throw wrongType(name, "an integer", value) }
        return integer
    }

    /// The optional boolean `name`, or `defaultValue` when it is absent.
    func bool(_ name: String, default defaultValue: Bool) throws(StockpotError) -> Bool {
        guard let value = value(name) else { return defaultValue }
        guard case .bool(let flag) = value else { throw wrongType(name, "true or false", value) }
        return flag
    }

    /// The required array `name`.
    func array(_ name: String) throws(StockpotError) -> [JSONValue] {
        guard let value = try optionalArray(name) else { throw missing(name, "an array") }
        return value
    }

    /// The optional array `name`.
    func optionalArray(_ name: String) throws(StockpotError) -> [JSONValue]? {
        guard let value = value(name) else { return nil }
        guard let array = value.arrayValue else { throw wrongType(name, "an array", value) }
        return array
    }

    /// The required array of integers `name`.
    func integers(_ name: String) throws(StockpotError) -> [Int64] {
        var result: [Int64] = []
        for (position, element) in try array(name).enumerated() {
            guard let integer = element.integerValue else {
                throw wrongType("\(name)[\(position)]", "an integer", element)
            }
            result.append(integer)
        }
        return result
    }

    /// The optional array of strings `name`.
    func optionalStrings(_ name: String) throws(StockpotError) -> [String]? {
        guard let array = try optionalArray(name) else { return nil }
        var result: [String] = []
        for (position, element) in array.enumerated() {
            guard let string = element.stringValue else {
                throw wrongType("\(name)[\(position)]", "a string", element)
            }
            result.append(string)
        }
        return result
    }

    /// The required array of strings `name`.
    func strings(_ name: String) throws(StockpotError) -> [String] {
        guard let value = try optionalStrings(name) else { throw missing(name, "an array") }
        return value
    }

    /// The required object `name`, as a reader of its members.
    func object(_ name: String) throws(StockpotError) -> ArgumentReader {
        guard let value = value(name) else { throw missing(name, "an object") }
        guard let object = value.objectValue else { throw wrongType(name, "an object", value) }
        return ArgumentReader(object, prefix: prefix + name + ".")
    }

    /// The `bad_request` error for a required member that is absent.
    func missing(_ name: String, _ expected: String) -> StockpotError {
        StockpotError(.badRequest, "The argument \"\(prefix)\(name)\" is missing; it must be \(expected).")
    }

    /// The `bad_request` error for a member of the wrong JSON type.
    func wrongType(_ name: String, _ expected: String, _ value: JSONValue) -> StockpotError {
        StockpotError(
            .badRequest, "The argument \"\(prefix)\(name)\" must be \(expected), not \(Self.kind(of: value)).")
    }

    /// The JSON type of a value, for messages.
    static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer: return "an integer"
        case .double: return "a non-integer number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
