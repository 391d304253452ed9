// The raw walk behind JSONFieldExtractor: match object keys against the path trie, decode the
// values that are needed, skip the rest by scanning for their end.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct FieldScanner {
    var cursor: JSONByteCursor
    let trie: [ExtractorNode]
    let fields: [IndexField]

    mutating func scanDocument(into values: inout [IndexValue]) throws(JSONError) {
        cursor.skipWhitespace()
        guard cursor.index < cursor.count else { throw cursor.unexpectedEnd("a JSON value") }
        if cursor.base[cursor.index] == UInt8(ascii: "{") {
            try scanObject(node: 0, into: &values, isRoot: true)
        } else {
            try materialize(node: 0, into: &values)
        }
    }

    /// Answers the fields from the top-level members a validating scan located: the value of
    /// root child `i` is at `locatedValue(i)` (nil: the document has no such member).
    mutating func scanLocatedMembers(
        _ locatedValue: (Int) -> Range<Int>?, into values: inout [IndexValue]
    ) throws(JSONError) {
        for (position, child) in trie[0].children.enumerated() {
            guard let value = locatedValue(position) else { continue }
            guard value.lowerBound >= 0, value.lowerBound < value.upperBound, value.upperBound <= cursor.count else {
                throw JSONError(.unexpectedEnd, at: value.lowerBound, "A located member lies outside the document.")
            }
            cursor.index = value.lowerBound
            try scanMember(node: child.node, into: &values)
        }
    }

    /// Walks the object at the cursor, descending into members on an indexed path.
    private mutating func scanObject(node: Int, into values: inout [IndexValue], isRoot: Bool) throws(JSONError) {
        let children = trie[node].children
        var found = 0
        cursor.index += 1  // {
        cursor.skipWhitespace()
        if try consume(UInt8(ascii: "}")) { return }
        while true {
            cursor.skipWhitespace()
            guard cursor.index < cursor.count, cursor.base[cursor.index] == UInt8(ascii: "\"") else {
                throw try unexpected("a string key in an object")
            }
            let child = try matchKey(among: children)
            cursor.skipWhitespace()
            guard try consume(UInt8(ascii: ":")) else { throw try unexpected("':' after an object key") }
            cursor.skipWhitespace()
            if let child {
                found += 1
                try scanMember(node: child, into: &values)
                // Keys are unique in stored documents: once every wanted key of the top-level
                // object has been seen, nothing after it can change the result.
                if isRoot && found == children.count { return }
            } else {
                try skipValue()
            }
            cursor.skipWhitespace()
            if try consume(UInt8(ascii: "}")) { return }
            guard try consume(UInt8(ascii: ",")) else { throw try unexpected("',' or '}' in an object") }
        }
    }

    private mutating func scanMember(node: Int, into values: inout [IndexValue]) throws(JSONError) {
        guard cursor.index < cursor.count else { throw cursor.unexpectedEnd("a JSON value") }
        if !trie[node].endsHere, cursor.base[cursor.index] == UInt8(ascii: "{") {
            try scanObject(node: node, into: &values, isRoot: false)
        } else {
            try materialize(node: node, into: &values)
        }
    }

    /// Decodes the value at the cursor and answers every field below `node` from it.
    private mutating func materialize(node: Int, into values: inout [IndexValue]) throws(JSONError) {
        if trie[node].children.isEmpty, cursor.base[cursor.index] == UInt8(ascii: "\"") {
            // The common case, a string where a path ends: no tree, no projection.
            let text = try cursor.readString()
            for leaf in trie[node].fieldsEndingHere {
                switch leaf.type {
                case .string, .fullText, .json1: values[leaf.field] = .text(text)
                case .integer, .floating: values[leaf.field] = .null
                }
            }
            return
        }
        let value = try cursor.readValue()
        for (field, rest) in trie[node].fieldsBelow {
            values[field] = IndexValue(document: value, path: rest, type: fields[field].type)
        }
    }

    /// Reads the key at the cursor and returns the child node it names, if any.
    private mutating func matchKey(among children: [KeySignature]) throws(JSONError) -> Int? {
        let start = cursor.index + 1
        let (end, sawBackslash) = try skipString()
        if sawBackslash {
            var decoder = cursor
            decoder.index = start - 1
            let key = Array(try decoder.readString().utf8)
            return children.first { trie[$0.node].key == key }?.node
        }
        let base = cursor.base
        let length = end - 1 - start
        let (low, high) = KeySignature.words(base, start, length, cursor.count)
        for child in children where child.low == low && child.high == high && child.length == length {
            if length <= 16 { return child.node }
            let rest = trie[child.node].key.withUnsafeBufferPointer { key in
                memcmp(key.baseAddress! + 16, base + start + 16, length - 16)
            }
            if rest == 0 { return child.node }
        }
        return nil
    }

    // MARK: - Skipping

    /// Skips the string whose quote is at the cursor; returns the offset after its closing quote
    /// and whether the string holds an escape.
    @discardableResult
    private mutating func skipString() throws(JSONError) -> (end: Int, sawBackslash: Bool) {
        var sawBackslash = false
        var i = cursor.index + 1
        let base = cursor.base
        let count = cursor.count
        while true {
            i = ByteScan.firstQuoteOrBackslash(base, from: i, to: count)
            guard i < count else { throw cursor.unexpectedEnd("the end of a string") }
            if base[i] == UInt8(ascii: "\"") {
                cursor.index = i + 1
                return (i + 1, sawBackslash)
            }
            sawBackslash = true
            i += 2
        }
    }

    /// Skips the value at the cursor.
    private mutating func skipValue() throws(JSONError) {
        guard cursor.index < cursor.count else { throw cursor.unexpectedEnd("a JSON value") }
        switch cursor.base[cursor.index] {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try skipContainer()
        default:
            // A number or literal: it ends at the next delimiter.
            let start = cursor.index
            while cursor.index < cursor.count {
                switch cursor.base[cursor.index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09:
                    if cursor.index == start { throw try unexpected("a JSON value") }
                    return
                default:
                    cursor.index += 1
                }
            }
        }
    }

    /// Skips a whole array or object by counting brackets outside strings.
    private mutating func skipContainer() throws(JSONError) {
        var depth = 0
        while cursor.index < cursor.count {
            switch cursor.base[cursor.index] {
            case UInt8(ascii: "\""):
                try skipString()
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    cursor.index += 1
                    return
                }
            default:
                break
            }
            cursor.index += 1
        }
        throw cursor.unexpectedEnd("the end of an array or object")
    }

    // MARK: - Helpers

    @inline(__always)
    private mutating func consume(_ byte: UInt8) throws(JSONError) -> Bool {
        guard cursor.index < cursor.count else { throw cursor.unexpectedEnd("'\(Character(Unicode.Scalar(byte)))'") }
        if cursor.base[cursor.index] == byte {
            cursor.index += 1
            return true
        }
        return false
    }

    private func unexpected(_ expected: String) throws(JSONError) -> JSONError {
        guard cursor.index < cursor.count else { return cursor.unexpectedEnd(expected) }
        return cursor.unexpectedByte(expected: expected)
    }
}
