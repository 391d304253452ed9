// A document as sync sees it: without the store's system fields, its content hash (what
// tells a local change from the synced version), and equality that ignores key order.

import StockpotCore
import StockpotJSON

/// The synced content of documents.
package enum DocumentContent {
    /// The members the store writes itself; never sent to the server.
    static let systemFields = ["_soupEntryId", "_soupLastModifiedDate", "_soupCreatedDate", "_soup"]

    /// `document` without the store's system fields.
    package static func stripped(_ document: JSONValue) -> JSONValue {
        guard case .object(var object) = document else { return document }
        for field in systemFields where object[field] != nil { object[field] = nil }
        return .object(object)
    }

    /// The compact UTF-8 JSON of a stripped document.
    package static func bytes(_ stripped: JSONValue) -> [UInt8] { JSONWriter.write(stripped) }

    /// The content hash of a stripped document: XXH3-64, as a signed integer (stored in the
    /// sync soup), of its compact JSON with every object's members sorted by key bytes, so
    /// that the same content in another member order (the server's jsonb order) hashes alike.
    package static func hash(_ stripped: JSONValue) -> Int64 {
        var text: [UInt8] = []
        text.reserveCapacity(512)
        appendSortingKeys(stripped, to: &text)
        return Int64(bitPattern: Checksum.xxh3(text))
    }

    /// Appends `value`'s compact JSON with every object's members sorted by key bytes: the
    /// text `JSONWriter` writes for the same value with its members in that order.
    private static func appendSortingKeys(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .object(let object):
            let members = object.members.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
            output.append(UInt8(ascii: "{"))
            for (position, (key, member)) in members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                JSONWriter.appendString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                appendSortingKeys(member, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                appendSortingKeys(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        default:
            JSONWriter.append(value, to: &output)
        }
    }

    /// Whether two documents hold the same content: objects compared as sets of members (the
    /// server's jsonb reorders keys), numbers by value, everything else exactly.
    package static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            for key in x.keys {
                guard let left = x[key], let right = y[key], same(left, right) else { return false }
            }
            return true
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.integer, .double), (.double, .integer), (.double, .double):
            return a.numberValue == b.numberValue
        default:
            return a == b
        }
    }
}
