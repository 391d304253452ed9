// Validates one JSON document without building a tree, with exactly JSONReader's acceptance
// and errors (same code, offset and message), and reports what JSONDocumentScan holds.
// The structural walk; strings, keys and numbers are in JSONDocumentScanner+Tokens.swift.

/// Checks JSON text the way ``JSONReader`` does, without building a ``JSONValue``.
///
/// For every input the scanner throws exactly the ``JSONError`` that ``JSONReader/parse(_:limits:)-(UnsafeRawBufferPointer,_)``
/// throws, and accepts exactly what it accepts (the differential tests pin this). For accepted
/// input it reports whether the top level is an object, where the requested top-level members
/// are (keys compared by their bytes after unescaping) and whether the bytes are canonical.
/// Stateless between calls and safe to call from any thread.
package struct JSONDocumentScanner {
    var cursor: JSONByteCursor
    let wanted: JSONTopLevelKeys
    var members: [JSONMemberSpan?]
    var isCanonical = true
    var topLevelMemberCount = 0
    var closingBraceOffset = 0
    /// Keys of the objects being read, innermost last, for finding repeated keys.
    var seenKeys: [SeenKey] = []
    /// Decoded bytes of keys written with escapes (plain keys point into the input).
    var arena: [UInt8] = []
    /// Decoded bytes of the escaped string value being checked (reused, then dropped).
    var scratch: [UInt8] = []

    /// A key read so far: where its decoded bytes are, and their hash.
    struct SeenKey {
        var hash: UInt64
        var start: Int
        var length: Int
        var inArena: Bool
    }

    init(cursor: JSONByteCursor, wanted: JSONTopLevelKeys) {
        self.cursor = cursor
        self.wanted = wanted
        self.members = Array(repeating: nil, count: wanted.keys.count)
        seenKeys.reserveCapacity(32)
    }

    /// Scans one JSON value that spans all of `bytes` (white space around it allowed).
    ///
    /// - Parameters:
    ///   - bytes: The UTF-8 JSON text.
    ///   - topLevelKeys: Keys (UTF-8 bytes, unescaped) whose top-level members to locate.
    ///   - limits: The limits to enforce, as ``JSONReader`` does.
    /// - Returns: What the document is; see ``JSONDocumentScan``.
    /// - Throws: ``JSONError``: exactly the error ``JSONReader`` throws for `bytes`.
    /// - Complexity: O(n) in the input length.
    package static func scan(
        _ bytes: UnsafeRawBufferPointer, topLevelKeys: [[UInt8]] = [], limits: JSONLimits = .default
    ) throws(JSONError) -> JSONDocumentScan {
        try scan(bytes, locating: JSONTopLevelKeys(topLevelKeys), limits: limits)
    }

    /// ``scan(_:topLevelKeys:limits:)-(UnsafeRawBufferPointer,_,_)`` with the keys prepared
    /// once for many documents.
    package static func scan(
        _ bytes: UnsafeRawBufferPointer, locating wanted: JSONTopLevelKeys, limits: JSONLimits = .default
    ) throws(JSONError) -> JSONDocumentScan {
        guard bytes.count <= limits.maxInputBytes else {
            throw JSONError(
                .inputTooLarge, at: limits.maxInputBytes,
                "The input is \(bytes.count) bytes, over the limit of \(limits.maxInputBytes).")
        }
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw JSONError(.unexpectedEnd, at: 0, "The input is empty; expected a JSON value.")
        }
        var scanner = JSONDocumentScanner(
            cursor: JSONByteCursor(base: base, count: bytes.count, limits: limits), wanted: wanted)
        return try scanner.scanDocument()
    }

    /// Scans one JSON value from a byte array; see ``scan(_:topLevelKeys:limits:)-(UnsafeRawBufferPointer,_,_)``.
    package static func scan(
        _ bytes: [UInt8], topLevelKeys: [[UInt8]] = [], limits: JSONLimits = .default
    ) throws(JSONError) -> JSONDocumentScan {
        try scan(bytes, locating: JSONTopLevelKeys(topLevelKeys), limits: limits)
    }

    /// Scans a byte array; see ``scan(_:locating:limits:)-(UnsafeRawBufferPointer,_,_)``.
    package static func scan(
        _ bytes: [UInt8], locating wanted: JSONTopLevelKeys, limits: JSONLimits = .default
    ) throws(JSONError) -> JSONDocumentScan {
        // The closure does not throw (typed throws through withUnsafeBytes crashes the compiler).
        let result: Result<JSONDocumentScan, JSONError> = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONError) -> JSONDocumentScan in
                try scan(raw, locating: wanted, limits: limits)
            }
        }
        return try result.get()
    }

    private mutating func scanDocument() throws(JSONError) -> JSONDocumentScan {
        skipWhitespace()
        guard cursor.index < cursor.count else { throw cursor.unexpectedEnd("a JSON value") }
        let isObject = cursor.base[cursor.index] == UInt8(ascii: "{")
        if isObject {
            try scanObject(isTopLevel: true)
        } else {
            _ = try scanValue()
        }
        skipWhitespace()
        if cursor.index < cursor.count {
            throw JSONError(
                .trailingGarbage, at: cursor.index,
                "Unexpected \(cursor.describeByte(at: cursor.index)) after the end of the JSON value.")
        }
        return JSONDocumentScan(
            isObject: isObject, isCanonical: isCanonical, members: members,
            topLevelMemberCount: topLevelMemberCount, closingBraceOffset: closingBraceOffset,
            limits: cursor.limits)
    }

    /// Scans the value at the cursor and says what it is.
    mutating func scanValue() throws(JSONError) -> JSONMemberKind {
        guard cursor.index < cursor.count else { throw cursor.unexpectedEnd("a JSON value") }
        switch cursor.base[cursor.index] {
        case UInt8(ascii: "{"):
            try scanObject(isTopLevel: false)
        case UInt8(ascii: "["):
            try scanArray()
        case UInt8(ascii: "\""):
            try scanString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try scanNumber()
        case UInt8(ascii: "t"):
            try cursor.expectLiteral("true")
        case UInt8(ascii: "f"):
            try cursor.expectLiteral("false")
        case UInt8(ascii: "n"):
            try cursor.expectLiteral("null")
            return .null
        default:
            throw cursor.unexpectedByte(expected: "a JSON value")
        }
        return .other
    }

    private mutating func scanArray() throws(JSONError) {
        try scanArray { _ in }
    }

    /// Scans the array at the cursor (its `[` next), calling `element` with each element's
    /// byte range (without surrounding white space). Inlined, so the plain scan pays nothing
    /// for the ranges it does not keep.
    @inline(__always)
    mutating func scanArray(_ element: (Range<Int>) -> Void) throws(JSONError) {
        try cursor.enterContainer()
        cursor.index += 1  // [
        skipWhitespace()
        if cursor.index < cursor.count, cursor.base[cursor.index] == UInt8(ascii: "]") {
            cursor.index += 1
            cursor.depth -= 1
            return
        }
        while true {
            skipWhitespace()
            let start = cursor.index
            _ = try scanValue()
            element(start..<cursor.index)
            skipWhitespace()
            guard cursor.index < cursor.count else { throw cursor.unexpectedEnd("',' or ']'") }
            let byte = cursor.base[cursor.index]
            cursor.index += 1
            if byte == UInt8(ascii: "]") { break }
            guard byte == UInt8(ascii: ",") else {
                cursor.index -= 1
                throw cursor.unexpectedByte(expected: "',' or ']' in an array")
            }
            skipWhitespace()
            if cursor.index < cursor.count, cursor.base[cursor.index] == UInt8(ascii: "]") {
                throw JSONError(
                    .trailingComma, at: cursor.index, "A trailing comma before ']' is not allowed.")
            }
        }
        cursor.depth -= 1
    }

    private mutating func scanObject(isTopLevel: Bool) throws(JSONError) {
        try cursor.enterContainer()
        cursor.index += 1  // {
        skipWhitespace()
        if cursor.index < cursor.count, cursor.base[cursor.index] == UInt8(ascii: "}") {
            if isTopLevel { closingBraceOffset = cursor.index }
            cursor.index += 1
            cursor.depth -= 1
            return
        }
        let stackStart = seenKeys.count
        let arenaStart = arena.count
        var largeObjectHashes: Set<UInt64>? = nil
        var seenFilter = SeenKeyFilter()
        while true {
            skipWhitespace()
            guard cursor.index < cursor.count else { throw cursor.unexpectedEnd("an object key") }
            guard cursor.base[cursor.index] == UInt8(ascii: "\"") else {
                throw cursor.unexpectedByte(expected: "a string key in an object")
            }
            let keyOffset = cursor.index
            let key = try scanKey()
            // From 32 members on, every key must reach isDuplicate, which keeps the hash set.
            let mayRepeat = seenKeys.count - stackStart >= 32 || seenFilter.mayContain(key.hash)
            if mayRepeat, isDuplicate(key, since: stackStart, set: &largeObjectHashes) {
                throw JSONError(
                    .duplicateKey, at: keyOffset,
                    "The key \"\(keyText(key))\" appears twice in one object.")
            }
            skipWhitespace()
            guard cursor.index < cursor.count else { throw cursor.unexpectedEnd("':'") }
            guard cursor.base[cursor.index] == UInt8(ascii: ":") else {
                throw cursor.unexpectedByte(expected: "':' after an object key")
            }
            cursor.index += 1
            skipWhitespace()
            seenKeys.append(key)
            seenFilter.insert(key.hash)
            let valueStart = cursor.index
            let kind = try scanValue()
            if isTopLevel, let slot = wantedSlot(for: key) {
                members[slot] = JSONMemberSpan(keyOffset: keyOffset, value: valueStart..<cursor.index, kind: kind)
            }
            skipWhitespace()
            guard cursor.index < cursor.count else { throw cursor.unexpectedEnd("',' or '}'") }
            let byte = cursor.base[cursor.index]
            cursor.index += 1
            if byte == UInt8(ascii: "}") { break }
            guard byte == UInt8(ascii: ",") else {
                cursor.index -= 1
                throw cursor.unexpectedByte(expected: "',' or '}' in an object")
            }
            skipWhitespace()
            if cursor.index < cursor.count, cursor.base[cursor.index] == UInt8(ascii: "}") {
                throw JSONError(
                    .trailingComma, at: cursor.index, "A trailing comma before '}' is not allowed.")
            }
        }
        cursor.depth -= 1
        if isTopLevel {
            topLevelMemberCount = seenKeys.count - stackStart
            closingBraceOffset = cursor.index - 1
        }
        seenKeys.removeSubrange(stackStart...)
        arena.removeSubrange(arenaStart...)
    }

    /// A 128-bit Bloom filter of the hashes of one object's keys: a key whose bit is clear is
    /// certainly new, so most keys skip the scan for a repeat.
    struct SeenKeyFilter {
        var low: UInt64 = 0
        var high: UInt64 = 0

        @inline(__always)
        func mayContain(_ hash: UInt64) -> Bool {
            let bit: UInt64 = 1 << (hash >> 58 & 63)
            return (hash >> 57 & 1 == 0 ? low : high) & bit != 0
        }

        @inline(__always)
        mutating func insert(_ hash: UInt64) {
            let bit: UInt64 = 1 << (hash >> 58 & 63)
            if hash >> 57 & 1 == 0 { low |= bit } else { high |= bit }
        }
    }

    /// Skips white space; any at all means the text is not compact, so not canonical.
    @inline(__always)
    mutating func skipWhitespace() {
        guard cursor.index < cursor.count else { return }
        switch cursor.base[cursor.index] {
        case 0x20, 0x0A, 0x0D, 0x09:
            isCanonical = false
            cursor.skipWhitespace()
        default:
            return
        }
    }
}
