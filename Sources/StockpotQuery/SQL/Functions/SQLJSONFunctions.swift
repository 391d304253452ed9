// SQLite's json_extract, json_type and json_array_length over JSON text read by StockpotJSON,
// with SQLite's paths (`$`, `.key`, `."key"`, `[N]`, `[#-N]`): a step that cannot apply is
// NULL; a malformed step is an error only once the lookup reaches it, as in SQLite.

import StockpotJSON

enum SQLJSONFunctions {
    /// `json_extract(json, path, ...)`: with one path, the value there as SQL (NULL, 1/0 for
    /// true/false, integer, real, text, or an array's or object's JSON text); with several,
    /// a JSON array of the values (null where a path finds nothing).
    static func extract(_ arguments: [SQLValue]) throws(SQLEvaluationError) -> SQLValue {
        guard arguments.count >= 2, let document = try parse(arguments[0]) else { return .null }
        if arguments.count == 2 {
            guard let path = arguments[1].textValue, let node = try lookup(document.root, path) else { return .null }
            return sqlValue(of: node)
        }
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (position, argument) in arguments.dropFirst().enumerated() {
            if position > 0 { out.append(UInt8(ascii: ",")) }
            let node = try argument.textValue.flatMap { path throws(SQLEvaluationError) in try lookup(document.root, path) }
            switch (node, document.numberSpelling) {
            case (.some, .some(let spelling)):
                // A number document is the only node there is; SQLite copies its spelling.
                out.append(contentsOf: spelling.utf8)
            default:
                JSONWriter.append(node ?? .null, to: &out)
            }
        }
        out.append(UInt8(ascii: "]"))
        return .text(String(decoding: out, as: UTF8.self))
    }

    /// `json_type(json [, path])`: null, true, false, integer, real, text, array or object;
    /// NULL when the path finds nothing.
    static func type(_ arguments: [SQLValue]) throws(SQLEvaluationError) -> SQLValue {
        guard let node = try node(arguments) else { return .null }
        switch node {
        case .null: return .text("null")
        case .bool(let flag): return .text(flag ? "true" : "false")
        case .integer: return .text("integer")
        case .double: return .text("real")
        case .string: return .text("text")
        case .array: return .text("array")
        case .object: return .text("object")
        }
    }

    /// `json_array_length(json [, path])`: an array's element count, 0 for any other value,
    /// NULL when the path finds nothing.
    static func arrayLength(_ arguments: [SQLValue]) throws(SQLEvaluationError) -> SQLValue {
        guard let node = try node(arguments) else { return .null }
        if case .array(let elements) = node { return .integer(Int64(elements.count)) }
        return .integer(0)
    }

    /// The node `json` (or `json` at `path`) names; nil when either is NULL or nothing is there.
    private static func node(_ arguments: [SQLValue]) throws(SQLEvaluationError) -> JSONValue? {
        guard let document = try parse(arguments[0]) else { return nil }
        guard arguments.count > 1 else { return document.root }
        guard let path = arguments[1].textValue else { return nil }
        return try lookup(document.root, path)
    }

    /// A JSON document read from an argument.
    struct Document {
        var root: JSONValue
        /// When the document is a number: its spelling, which SQLite copies into arrays.
        var numberSpelling: String?
    }

    /// The JSON document of a value's text; nil for NULL.
    ///
    /// A real argument is read from its text as SQLite reads it, so one whose 15-digit text
    /// rounds past the largest double (1.79769313486232e+308) is an infinity, not an error.
    ///
    /// - Throws: `invalidArgument` ("malformed JSON") when the text is not JSON.
    static func parse(_ value: SQLValue) throws(SQLEvaluationError) -> Document? {
        guard let text = value.textValue else { return nil }
        if case .real(let real) = value, real.isFinite {
            return Document(root: .double(text.withSQLBytes { SQLNumberText.real($0).value }), numberSpelling: text)
        }
        let root: JSONValue
        do {
            root = try JSONReader.parse(text)
        } catch {
            throw SQLEvaluationError(.invalidArgument, "malformed JSON")
        }
        switch root {
        case .integer, .double:
            let spelling = text.trimmingJSONWhiteSpace
            return Document(root: root, numberSpelling: spelling)
        default:
            return Document(root: root, numberSpelling: nil)
        }
    }

    /// A JSON value as json_extract returns it.
    static func sqlValue(of node: JSONValue) -> SQLValue {
        switch node {
        case .null: .null
        case .bool(let flag): .integer(flag ? 1 : 0)
        case .integer(let integer): .integer(integer)
        case .double(let double): .real(checking: double)
        case .string(let string): .text(string)
        case .array, .object: .text(node.jsonText)
        }
    }

    /// The value at `path` in `root`, or nil when a step finds nothing.
    ///
    /// - Throws: `invalidArgument` ("JSON path error near '...'") for a malformed step the
    ///   lookup reaches.
    static func lookup(_ root: JSONValue, _ pathText: String) throws(SQLEvaluationError) -> JSONValue? {
        let path = Array(pathText.utf8)
        func at(_ index: Int) -> UInt8 { index < path.count ? path[index] : 0 }
        func pathError(_ from: Int) -> SQLEvaluationError {
            let rest = String(decoding: path[Swift.min(from, path.count)...], as: UTF8.self)
            return SQLEvaluationError(.invalidArgument, "JSON path error near '\(rest)'")
        }
        guard at(0) == UInt8(ascii: "$") else { throw pathError(0) }
        var node = root
        var index = 1
        while index < path.count {
            switch path[index] {
            case UInt8(ascii: "."):
                guard case .object(let object) = node else { return nil }
                index += 1
                let key: String
                if at(index) == UInt8(ascii: "\"") {
                    var end = index + 1
                    while end < path.count, path[end] != UInt8(ascii: "\"") { end += 1 }
                    guard end < path.count else { throw pathError(index) }
                    key = String(decoding: path[(index + 1)..<end], as: UTF8.self)
                    index = end + 1
                } else {
                    var end = index
                    while end < path.count, path[end] != UInt8(ascii: "."), path[end] != UInt8(ascii: "[") { end += 1 }
                    guard end > index else { throw pathError(index) }
                    key = String(decoding: path[index..<end], as: UTF8.self)
                    index = end
                }
                guard let child = object[key] else { return nil }
                node = child
            case UInt8(ascii: "["):
                // SQLite reads the index as a 32-bit unsigned number (wrapping).
                var position: UInt32 = 0
                var end = index + 1
                while SQLNumberText.isDigit(at(end)) {
                    position = position &* 10 &+ UInt32(at(end) - 0x30)
                    end += 1
                }
                if end < index + 2 || at(end) != UInt8(ascii: "]") {
                    guard at(index + 1) == UInt8(ascii: "#") else { throw pathError(index) }
                    guard case .array(let elements) = node else { return nil }
                    position = UInt32(truncatingIfNeeded: elements.count)
                    end = index + 2
                    if at(index + 2) == UInt8(ascii: "-") && SQLNumberText.isDigit(at(index + 3)) {
                        var back: UInt32 = 0
                        end = index + 3
                        while SQLNumberText.isDigit(at(end)) {
                            back = back &* 10 &+ UInt32(at(end) - 0x30)
                            end += 1
                        }
                        if back > position { return nil }
                        position -= back
                    }
                    guard at(end) == UInt8(ascii: "]") else { throw pathError(index) }
                }
                guard case .array(let elements) = node else { return nil }
                index = end + 1
                guard Int(position) < elements.count else { return nil }
                node = elements[Int(position)]
            default:
                throw pathError(index)
            }
        }
        return node
    }
}

extension String {
    /// The text without JSON's white space (space, tab, line feed, carriage return) at either end.
    fileprivate var trimmingJSONWhiteSpace: String {
        let isWhiteSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !isWhiteSpace($0) }),
            let last = bytes.lastIndex(where: { !isWhiteSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
