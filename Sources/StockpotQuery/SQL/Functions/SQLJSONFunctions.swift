// SQLite's json_extract, json_type and json_array_length: JSON text checked by StockpotJSON's
// reader and walked by its spelling (SQLJSONText), SQLite's paths (`$`, `.key`, `."key"`,
// `[N]`, `[#-N]`), a malformed path step an error only once the lookup reaches it.

import StockpotJSON

enum SQLJSONFunctions {
    /// `json_extract(json, path, ...)`: with one path, the value there as SQL (NULL, 1/0 for
    /// true/false, integer, real, text, or an array's or object's JSON text); with several,
    /// a JSON array of the values (null where a path finds nothing).
    static func extract(_ arguments: [SQLValue]) throws(SQLEvaluationError) -> SQLValue {
        guard arguments.count >= 2, let document = try parse(arguments[0]) else { return .null }
        if arguments.count == 2 {
            guard let path = arguments[1].textValue, let node = try lookup(document, path) else { return .null }
            return sqlValue(document, node)
        }
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (position, argument) in arguments.dropFirst().enumerated() {
            if position > 0 { out.append(UInt8(ascii: ",")) }
            if let path = argument.textValue, let node = try lookup(document, path) {
                out.append(contentsOf: document.compactSpelling(of: node))
            } else {
                out.append(contentsOf: "null".utf8)
            }
        }
        out.append(UInt8(ascii: "]"))
        return .text(String(decoding: out, as: UTF8.self))
    }

    /// `json_type(json [, path])`: null, true, false, integer, real, text, array or object;
    /// NULL when the path finds nothing.
    static func type(_ arguments: [SQLValue]) throws(SQLEvaluationError) -> SQLValue {
        guard let (document, node) = try node(arguments) else { return .null }
        switch document.bytes[node] {
        case UInt8(ascii: "n"): return .text("null")
        case UInt8(ascii: "t"): return .text("true")
        case UInt8(ascii: "f"): return .text("false")
        case UInt8(ascii: "\""): return .text("text")
        case UInt8(ascii: "["): return .text("array")
        case UInt8(ascii: "{"): return .text("object")
        default: return .text(document.isIntegerSpelling(node) ? "integer" : "real")
        }
    }

    /// `json_array_length(json [, path])`: an array's element count, 0 for any other value,
    /// NULL when the path finds nothing.
    static func arrayLength(_ arguments: [SQLValue]) throws(SQLEvaluationError) -> SQLValue {
        guard let (document, node) = try node(arguments) else { return .null }
        guard document.bytes[node] == UInt8(ascii: "[") else { return .integer(0) }
        return .integer(Int64(document.elements(of: node).count))
    }

    /// The document and the node `json` (or `json` at `path`) names; nil when either is NULL
    /// or nothing is there.
    private static func node(_ arguments: [SQLValue]) throws(SQLEvaluationError) -> (SQLJSONText, Int)? {
        guard let document = try parse(arguments[0]) else { return nil }
        guard arguments.count > 1 else { return (document, document.root) }
        guard let path = arguments[1].textValue, let node = try lookup(document, path) else { return nil }
        return (document, node)
    }

    /// The JSON text of a value; nil for NULL.
    ///
    /// A real argument's text is a number even when it rounds past the largest double
    /// (1.79769313486232e+308, an infinity to SQLite), which StockpotJSON's reader refuses.
    ///
    /// - Throws: `invalidArgument` ("malformed JSON") when the text is not JSON.
    static func parse(_ value: SQLValue) throws(SQLEvaluationError) -> SQLJSONText? {
        guard let text = value.textValue else { return nil }
        let bytes = Array(text.utf8)
        if case .real(let real) = value, real.isFinite { return SQLJSONText(bytes: bytes) }
        do {
            _ = try JSONReader.parse(bytes)
        } catch {
            throw SQLEvaluationError(.invalidArgument, "malformed JSON")
        }
        return SQLJSONText(bytes: bytes)
    }

    /// The value at `node` as json_extract returns it: NULL, 1 or 0 for true and false, an
    /// integer while it fits (else a real), a real, the unescaped text of a string, or the
    /// compact JSON text of an array or object.
    static func sqlValue(_ document: SQLJSONText, _ node: Int) -> SQLValue {
        let spelling = document.bytes[node..<document.end(of: node)]
        switch document.bytes[node] {
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "t"): return .integer(1)
        case UInt8(ascii: "f"): return .integer(0)
        case UInt8(ascii: "\""):
            if case .string(let string)? = try? JSONReader.parse(Array(spelling)) { return .text(string) }
            return .null
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            return .text(String(decoding: document.compactSpelling(of: node), as: UTF8.self))
        default:
            // SQLite reads a JSON number with the C library (correctly rounded), as the reader
            // does; one past the double range is an infinity there and refused here.
            switch try? JSONReader.parse(Array(spelling)) {
            case .integer(let integer)?: return .integer(integer)
            case .double(let double)?: return .real(checking: double)
            default: return .real(checking: Array(spelling).withUnsafeBufferPointer { SQLNumberText.real($0).value })
            }
        }
    }

    /// The start of the value at `path` in `document`, or nil when a step finds nothing.
    ///
    /// - Throws: `invalidArgument` ("JSON path error near '...'") for a malformed step the
    ///   lookup reaches.
    static func lookup(_ document: SQLJSONText, _ pathText: String) throws(SQLEvaluationError) -> Int? {
        let path = Array(pathText.utf8)
        func at(_ index: Int) -> UInt8 { index < path.count ? path[index] : 0 }
        func pathError(_ from: Int) -> SQLEvaluationError {
            let rest = String(decoding: path[Swift.min(from, path.count)...], as: UTF8.self)
            return SQLEvaluationError(.invalidArgument, "JSON path error near '\(rest)'")
        }
        guard at(0) == UInt8(ascii: "$") else { throw pathError(0) }
        var node = document.root
        var index = 1
        while index < path.count {
            switch path[index] {
            case UInt8(ascii: "."):
                guard document.bytes[node] == UInt8(ascii: "{") else { return nil }
                index += 1
                let key: ArraySlice<UInt8>
                if at(index) == UInt8(ascii: "\"") {
                    var end = index + 1
                    while end < path.count, path[end] != UInt8(ascii: "\"") { end += 1 }
                    guard end < path.count else { throw pathError(index) }
                    key = path[(index + 1)..<end]
                    index = end + 1
                } else {
                    var end = index
                    while end < path.count, path[end] != UInt8(ascii: "."), path[end] != UInt8(ascii: "[") { end += 1 }
                    guard end > index else { throw pathError(index) }
                    key = path[index..<end]
                    index = end
                }
                guard let child = document.member(key, of: node) else { return nil }
                node = child
            case UInt8(ascii: "["):
                // SQLite reads the index as a 32-bit unsigned number (wrapping).
                var position: UInt32 = 0
                var end = index + 1
                while SQLNumberText.isDigit(at(end)) {
                    position = position &* 10 &+ UInt32(at(end) - 0x30)
                    end += 1
                }
                var elements: [Int]?
                if end < index + 2 || at(end) != UInt8(ascii: "]") {
                    guard at(index + 1) == UInt8(ascii: "#") else { throw pathError(index) }
                    guard document.bytes[node] == UInt8(ascii: "[") else { return nil }
                    let all = document.elements(of: node)
                    elements = all
                    position = UInt32(truncatingIfNeeded: all.count)
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
                guard document.bytes[node] == UInt8(ascii: "[") else { return nil }
                index = end + 1
                let all = elements ?? document.elements(of: node)
                guard Int(position) < all.count else { return nil }
                node = all[Int(position)]
            default:
                throw pathError(index)
            }
        }
        return node
    }
}
