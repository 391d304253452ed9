// Fuzz target `json`: the JSON reader, the document scanner and the system-field path that
// ingestion takes (inspect, stamp, read the stored date back), checked against each other.

import Stockpot
import StockpotJSON

/// Reads an input with ``JSONReader`` and with the scanner ingestion uses, and checks that
/// they agree: the same error for a rejected input; for an accepted one, the writer's text
/// reads back to the same value, `isCanonical` holds exactly for that text, the located
/// members are the values the tree holds, and stamping gives the writer's text of the tree
/// with both system fields set.
enum JSONFuzzTarget {
    static let name = "json"
    /// Keys located besides the system fields, as a soup's index paths would ask.
    static let locatedKeys = JSONLocatedKeys([Array("name".utf8), Array("a".utf8), Array("".utf8)], besides: SystemField.members)
    static let locatedNames = ["name", "a", ""]

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        let read: Result<JSONValue, JSONError> = Result { () throws(JSONError) in try JSONReader.parse(data) }
        let inspected: Result<JSONIntegerMembersScan, JSONError> = Result { () throws(JSONError) in
            try SystemField.inspect(data, alsoLocating: locatedKeys)
        }
        switch (read, inspected) {
        case (.failure(let readError), .failure(let scanError)):
            try check(readError == scanError, "the reader threw \(readError), the scanner \(scanError)")
        case (.failure(let error), .success):
            throw FuzzFailure(name, "the scanner accepted what the reader rejects (\(error))")
        case (.success, .failure(let error)):
            throw FuzzFailure(name, "the scanner rejected what the reader accepts (\(error))")
        case (.success(let value), .success(let scan)):
            try checkAccepted(data, value: value, scan: scan)
        }
    }

    private static func checkAccepted(_ data: [UInt8], value: JSONValue, scan: JSONIntegerMembersScan) throws(FuzzFailure) {
        let written = JSONWriter.write(value)
        let reread = Result { () throws(JSONError) in try JSONReader.parse(written) }
        guard case .success(let again) = reread else {
            throw FuzzFailure(name, "the writer's text does not read back: \(reread)")
        }
        try check(again == value, "the writer's text reads back as a different value")
        try check(scan.isCanonical == (written == data), "isCanonical is \(scan.isCanonical) for the input")
        guard case .object(let object) = value else {
            try check(!scan.isObject, "the scanner calls a non-object an object")
            return
        }
        try check(scan.isObject, "the scanner does not call an object an object")
        for (position, key) in locatedNames.enumerated() {
            let range = scan.locatedValue(position)
            guard let member = object[key] else {
                try check(range == nil, "the scanner locates \"\(key)\", which the object does not hold")
                continue
            }
            guard let range else { throw FuzzFailure(name, "the scanner misses the member \"\(key)\"") }
            let located = Result { () throws(JSONError) in try JSONReader.parse(Array(data[range])) }
            try check((try? located.get()) == member, "the located member \"\(key)\" differs from the tree's")
        }
        let stamped = Result { () throws(JSONError) in try scan.stamped(data, entryID: 7, lastModified: -3) }
        guard case .success(let stampedBytes) = stamped else {
            throw FuzzFailure(name, "stamping an accepted object failed: \(stamped)")
        }
        var expected = object
        expected[SystemField.entryID] = .integer(7)
        expected[SystemField.lastModified] = .integer(-3)
        try check(stampedBytes == JSONWriter.write(.object(expected)), "stamping differs from the writer's text of the stamped tree")
        try check(SystemField.storedLastModified(in: stampedBytes) == -3, "the stored date does not read back")
    }

    static func check(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzFailure) {
        if !condition { throw FuzzFailure(name, message()) }
    }
}
