// Strict RFC 8259 reader: UTF-8 bytes to a JSONValue tree, with typed errors and limits.
// Entry points and the structural grammar; strings and numbers are in JSONReader+Strings and
// JSONReader+Numbers. Unsafe pointers stay inside this file group.

import CThreadStack

/// Reads JSON text (RFC 8259, strictly) into a ``JSONValue``.
///
/// Everything the RFC does not allow is rejected with a ``JSONError`` naming the byte offset:
/// trailing commas, leading zeros, `NaN`, comments, raw control characters in strings,
/// ill-formed UTF-8, lone surrogate escapes, repeated object keys and trailing garbage.
/// Stateless and safe to call from any thread.
public enum JSONReader {
    /// Reads one JSON value that spans all of `bytes` (white space around it allowed).
    ///
    /// - Throws: ``JSONError`` with the offset and reason of the first problem.
    /// - Complexity: O(n) in the input length.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default
    ) throws(JSONError) -> JSONValue {
        guard bytes.count <= limits.maxInputBytes else {
            throw JSONError(
                .inputTooLarge, at: limits.maxInputBytes,
                "The input is \(bytes.count) bytes, over the limit of \(limits.maxInputBytes).")
        }
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw JSONError(.unexpectedEnd, at: 0, "The input is empty; expected a JSON value.")
        }
        var cursor = JSONByteCursor(base: base, count: bytes.count, limits: limits)
        cursor.reserveStacks()
        return try cursor.readDocument()
    }

    /// Reads one value that spans all of `bytes`, without sizing the reader's member stacks
    /// first: for one member of an object read on demand, most often a scalar, for which
    /// sizing them costs more than reading it.
    static func parseMember(_ bytes: UnsafeRawBufferPointer) throws(JSONError) -> JSONValue {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw JSONError(.unexpectedEnd, at: 0, "The input is empty; expected a JSON value.")
        }
        var cursor = JSONByteCursor(base: base, count: bytes.count, limits: .default)
        return try cursor.readDocument()
    }

    /// Reads one JSON value from a byte array.
    public static func parse(
        _ bytes: [UInt8], limits: JSONLimits = .default
    ) throws(JSONError) -> JSONValue {
        let result: Result<JSONValue, JSONError> = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONError) -> JSONValue in try parse(raw, limits: limits) }
        }
        return try result.get()
    }

    /// Reads one JSON value from a string's UTF-8 bytes.
    public static func parse(
        _ text: String, limits: JSONLimits = .default
    ) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8), limits: limits)
    }
}

extension JSONValue {
    /// Reads a JSON value from UTF-8 bytes; the same as ``JSONReader/parse(_:limits:)-([UInt8],_)``.
    public init(parsing bytes: [UInt8], limits: JSONLimits = .default) throws(JSONError) {
        self = try JSONReader.parse(bytes, limits: limits)
    }
}

/// The reader's position in a byte buffer. Valid only while that buffer is.
struct JSONByteCursor {
    let base: UnsafePointer<UInt8>
    let count: Int
    let limits: JSONLimits
    var index = 0
    var depth = 0
    /// The lowest stack address nesting may reach: the thread's stack end plus
    /// ``stackHeadroom`` (0 when the system does not tell); looked up only once input nests
    /// ``stackCheckDepth`` deep, since the lookup is a system call and documents rarely nest.
    var stackFloor: UInt?
    /// Members of the containers being read, innermost last; shared to avoid regrowing an
    /// array per container.
    var valueStack: [JSONValue] = []
    var keyStack: [String] = []
    var fingerprintStack: [UInt64] = []

    init(base: UnsafePointer<UInt8>, count: Int, limits: JSONLimits) {
        self.base = base
        self.count = count
        self.limits = limits
    }

    /// Sizes the member stacks for a typical document, so that reading one does not regrow them.
    mutating func reserveStacks() {
        valueStack.reserveCapacity(32)
        keyStack.reserveCapacity(32)
        fingerprintStack.reserveCapacity(32)
    }

    mutating func readDocument() throws(JSONError) -> JSONValue {
        skipWhitespace()
        let value = try readValue()
        skipWhitespace()
        if index < count {
            throw JSONError(
                .trailingGarbage, at: index,
                "Unexpected \(describeByte(at: index)) after the end of the JSON value.")
        }
        return value
    }

    // MARK: - Values

    mutating func readValue() throws(JSONError) -> JSONValue {
        guard index < count else { throw unexpectedEnd("a JSON value") }
        switch base[index] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        default:
            throw unexpectedByte(expected: "a JSON value")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let start = index
        let length = literal.utf8CodeUnitCount
        let text = literal.utf8Start
        for offset in 0..<length {
            guard start + offset < count else {
                index = start + offset
                throw unexpectedEnd("'\(literal)'")
            }
            if base[start + offset] != text[offset] {
                index = start + offset
                throw unexpectedByte(expected: "'\(literal)'")
            }
        }
        index = start + length
    }

    mutating func enterContainer() throws(JSONError) {
        depth += 1
        if depth > limits.maxDepth || depth > JSONLimits.maxSupportedDepth {
            throw JSONError(
                .depthLimitExceeded, at: index,
                "Nesting is deeper than the limit of \(limits.effectiveMaxDepth) arrays and objects.")
        }
        if depth >= Self.stackCheckDepth {
            // The depth limit assumes a thread with a few MiB of stack; on a thread with less
            // left, stop before its end rather than overflow it.
            if stackFloor == nil {
                let low = UInt(stockpot_thread_stack_low())
                stackFloor = low == 0 ? 0 : low + UInt(Self.stackHeadroom)
            }
            if Self.stackAddress() <= stackFloor ?? 0 {
                throw JSONError(
                    .depthLimitExceeded, at: index,
                    "Nesting of \(depth) arrays and objects is deeper than this thread's stack allows.")
            }
        }
    }

    /// The depth from which nesting also checks the stack the thread has left. Low enough that
    /// an AddressSanitizer build (about 4 KiB of stack a level in debug) reaches it well
    /// within a 192 KiB thread; documents seldom nest this deep, so few parses pay the lookup.
    static let stackCheckDepth = 16
    /// The stack left untouched below the deepest level.
    static let stackHeadroom = 128 * 1024

    /// An address in the current frame: how deep the stack is now (the frame address, not a
    /// local's, which AddressSanitizer may keep on a fake stack elsewhere).
    @inline(__always)
    static func stackAddress() -> UInt {
        UInt(stockpot_stack_address())
    }

    private mutating func readArray() throws(JSONError) -> JSONValue {
        try enterContainer()
        index += 1  // [
        skipWhitespace()
        if index < count, base[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array([])
        }
        // Elements go on a stack shared by the whole parse, then into one exact-size array.
        let stackStart = valueStack.count
        while true {
            skipWhitespace()
            valueStack.append(try readValue())
            skipWhitespace()
            guard index < count else { throw unexpectedEnd("',' or ']'") }
            let byte = base[index]
            index += 1
            if byte == UInt8(ascii: "]") { break }
            guard byte == UInt8(ascii: ",") else {
                index -= 1
                throw unexpectedByte(expected: "',' or ']' in an array")
            }
            skipWhitespace()
            if index < count, base[index] == UInt8(ascii: "]") {
                throw JSONError(
                    .trailingComma, at: index, "A trailing comma before ']' is not allowed.")
            }
        }
        depth -= 1
        let elements = Array(valueStack[stackStart...])
        valueStack.removeSubrange(stackStart...)
        return .array(elements)
    }

    private mutating func readObject() throws(JSONError) -> JSONValue {
        try enterContainer()
        index += 1  // {
        skipWhitespace()
        if index < count, base[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(JSONObject())
        }
        let stackStart = keyStack.count
        var largeObjectFingerprints: Set<UInt64>? = nil
        while true {
            skipWhitespace()
            guard index < count else { throw unexpectedEnd("an object key") }
            guard base[index] == UInt8(ascii: "\"") else {
                throw unexpectedByte(expected: "a string key in an object")
            }
            let keyOffset = index
            let (key, fingerprint) = try readKey()
            if isDuplicate(key, fingerprint, since: stackStart, set: &largeObjectFingerprints) {
                throw JSONError(
                    .duplicateKey, at: keyOffset, "The key \"\(key)\" appears twice in one object.")
            }
            skipWhitespace()
            guard index < count else { throw unexpectedEnd("':'") }
            guard base[index] == UInt8(ascii: ":") else {
                throw unexpectedByte(expected: "':' after an object key")
            }
            index += 1
            skipWhitespace()
            keyStack.append(key)
            fingerprintStack.append(fingerprint)
            valueStack.append(try readValue())
            skipWhitespace()
            guard index < count else { throw unexpectedEnd("',' or '}'") }
            let byte = base[index]
            index += 1
            if byte == UInt8(ascii: "}") { break }
            guard byte == UInt8(ascii: ",") else {
                index -= 1
                throw unexpectedByte(expected: "',' or '}' in an object")
            }
            skipWhitespace()
            if index < count, base[index] == UInt8(ascii: "}") {
                throw JSONError(
                    .trailingComma, at: index, "A trailing comma before '}' is not allowed.")
            }
        }
        depth -= 1
        let memberCount = keyStack.count - stackStart
        let valueStart = valueStack.count - memberCount
        let object = JSONObject(
            uncheckedKeys: Array(keyStack[stackStart...]), values: Array(valueStack[valueStart...]))
        keyStack.removeSubrange(stackStart...)
        fingerprintStack.removeSubrange(stackStart...)
        valueStack.removeSubrange(valueStart...)
        return .object(object)
    }

    /// Reads an object key and a 64-bit hash of its UTF-8 bytes, so that finding a repeated key
    /// compares integers and only compares bytes when the hashes agree.
    private mutating func readKey() throws(JSONError) -> (String, UInt64) {
        let rawStart = index + 1
        var key = try readString()
        let rawLength = index - 1 - rawStart
        // An escape always decodes to fewer bytes than it is written with, so equal lengths
        // mean the raw bytes are the key's bytes.
        if key.utf8.count == rawLength {
            return (key, Self.fingerprint(UnsafeBufferPointer(start: base + rawStart, count: rawLength)))
        }
        let fingerprint = key.withUTF8 { Self.fingerprint($0) }
        return (key, fingerprint)
    }

    /// FNV-1a over the bytes: keys are short, and equal keys must hash equally.
    private static func fingerprint(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// Whether `key` repeats one of the object's keys read so far (those from `stackStart`).
    /// JSON keys are equal when their bytes are, never by Unicode equivalence. Small objects
    /// scan the hashes; from 32 members on, a set of hashes keeps the check O(1).
    private func isDuplicate(
        _ key: String, _ fingerprint: UInt64, since stackStart: Int, set: inout Set<UInt64>?
    ) -> Bool {
        let memberCount = fingerprintStack.count - stackStart
        if memberCount >= 32 {
            if set == nil { set = Set(fingerprintStack[stackStart...]) }
            if set!.insert(fingerprint).inserted { return false }
        }
        var position = stackStart
        while position < fingerprintStack.count {
            if fingerprintStack[position] == fingerprint, keyStack[position].utf8Equals(key) {
                return true
            }
            position += 1
        }
        return false
    }

    // MARK: - White space and errors

    @inline(__always)
    mutating func skipWhitespace() {
        while index < count {
            switch base[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    func unexpectedEnd(_ expected: String) -> JSONError {
        JSONError(.unexpectedEnd, at: count, "The input ended where \(expected) was expected.")
    }

    /// The error for the byte at `index`; a byte that starts ill-formed UTF-8 is named so.
    func unexpectedByte(expected: String) -> JSONError {
        if base[index] >= 0x80, !UTF8Validation.isWellFormedSequence(at: index, base, count) {
            return JSONError(
                .invalidUTF8, at: index, "The input is not well-formed UTF-8 at this byte.")
        }
        return JSONError(
            .unexpectedCharacter, at: index,
            "Unexpected \(describeByte(at: index)); expected \(expected).")
    }

    func describeByte(at offset: Int) -> String {
        let byte = base[offset]
        if byte >= 0x21 && byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}
