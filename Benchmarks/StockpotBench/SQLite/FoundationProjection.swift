// SmartStore's path projection and index-value coercion over Foundation JSON trees (what
// iOS SmartStore does with NSJSONSerialization output), used by the SQLite baseline.

import Foundation
import StockpotJSON

/// Projects paths out of `JSONSerialization` trees and turns the result into the value a
/// SmartStore index column holds (docs/semantics.md, "The value an index holds").
enum FoundationProjection {
    /// The class JSONSerialization uses for `true` and `false`.
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    /// The value at `path`, walking through arrays the SmartStore way; `nil` when missing.
    static func project(_ path: ArraySlice<String>, in value: Any) -> Any? {
        guard let key = path.first else { return value }
        if let object = value as? [String: Any] {
            guard let child = object[key] else { return nil }
            return project(path.dropFirst(), in: child)
        }
        if let array = value as? [Any] {
            let results = array.compactMap { element -> Any? in
                guard let projected = project(path, in: element), !(projected is NSNull) else { return nil }
                return projected
            }
            return results.isEmpty ? nil : results
        }
        return nil
    }

    /// The value at `path` without array traversal (what `json_extract` sees).
    static func projectWithoutArrays(_ path: ArraySlice<String>, in value: Any) -> Any? {
        guard let key = path.first else { return value }
        guard let object = value as? [String: Any], let child = object[key] else { return nil }
        return projectWithoutArrays(path.dropFirst(), in: child)
    }

    /// The column value an index of `spec` holds for `document`.
    static func indexValue(of document: Any, spec: SoupIndexSpec) -> SQLiteValue {
        let components = spec.components
        if spec.type == .json1 {
            return json1Value(projectWithoutArrays(components[...], in: document))
        }
        guard let value = project(components[...], in: document), !(value is NSNull) else { return .null }
        switch spec.type {
        case .string, .fullText:
            if let text = value as? String { return .text(text) }
            return .text(jsonText(value))
        case .integer:
            guard let number = plainNumber(value) else { return .null }
            if isDouble(number) {
                let double = number.doubleValue
                if double >= 9.223_372_036_854_775_807e18 { return .integer(.max) }
                if double <= -9.223_372_036_854_775_808e18 { return .integer(.min) }
                return .integer(Int64(double))
            }
            return .integer(number.int64Value)
        case .floating:
            return plainNumber(value).map { .real($0.doubleValue) } ?? .null
        case .json1:
            return json1Value(value)
        }
    }

    private static func json1Value(_ value: Any?) -> SQLiteValue {
        guard let value, !(value is NSNull) else { return .null }
        if let text = value as? String { return .text(text) }
        if let number = value as? NSNumber {
            if ObjectIdentifier(type(of: number)) == booleanClass { return .integer(number.boolValue ? 1 : 0) }
            return isDouble(number) ? .real(number.doubleValue) : .integer(number.int64Value)
        }
        return .text(jsonText(value))
    }

    /// A number that is not a boolean, or `nil`.
    private static func plainNumber(_ value: Any) -> NSNumber? {
        guard let number = value as? NSNumber, ObjectIdentifier(type(of: number)) != booleanClass else {
            return nil
        }
        return number
    }

    private static func isDouble(_ number: NSNumber) -> Bool {
        let type = number.objCType.pointee
        return type == CChar(UInt8(ascii: "d")) || type == CChar(UInt8(ascii: "f"))
    }

    /// Compact JSON text of a number, boolean, array or object.
    private static func jsonText(_ value: Any) -> String {
        if let number = value as? NSNumber {
            if ObjectIdentifier(type(of: number)) == booleanClass { return number.boolValue ? "true" : "false" }
            return isDouble(number) ? "\(number.doubleValue)" : "\(number.int64Value)"
        }
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) else {
            return ""
        }
        return String(decoding: data, as: UTF8.self)
    }
}
