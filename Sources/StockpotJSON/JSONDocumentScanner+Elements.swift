// Splitting the text of a JSON array into the byte ranges of its elements, checked as
// JSONReader checks them, without building a JSONValue: how a large request's entries reach
// the store as bytes.

extension JSONDocumentScanner {
    /// The byte ranges of the elements of the JSON array that spans all of `bytes` (white
    /// space around it allowed), in order, each without surrounding white space.
    ///
    /// - Parameters:
    ///   - bytes: UTF-8 text whose one value is an array.
    ///   - limits: The limits to enforce; the array itself is depth 1.
    /// - Returns: One range per element, offsets into `bytes`.
    /// - Throws: ``JSONError``: what ``JSONReader`` throws for `bytes`, or `unexpectedCharacter`
    ///   when the value is not an array.
    /// - Complexity: O(n) in the input length; one range per element.
    package static func elementRanges(
        ofArray bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default
    ) throws(JSONError) -> [Range<Int>] {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw JSONError(.unexpectedEnd, at: 0, "The input is empty; expected a JSON array.")
        }
        var scanner = JSONDocumentScanner(
            cursor: JSONByteCursor(base: base, count: bytes.count, limits: limits), wanted: JSONTopLevelKeys([]))
        return try scanner.scanElements()
    }

    /// ``elementRanges(ofArray:limits:)-(UnsafeRawBufferPointer,_)`` over a slice of a byte
    /// array; the ranges are offsets into the slice's base array (the slice's indices).
    package static func elementRanges(
        ofArray bytes: ArraySlice<UInt8>, limits: JSONLimits = .default
    ) throws(JSONError) -> [Range<Int>] {
        let start = bytes.startIndex
        let result: Result<[Range<Int>], JSONError> = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONError) -> [Range<Int>] in try elementRanges(ofArray: raw, limits: limits) }
        }
        return try result.get().map { ($0.lowerBound + start)..<($0.upperBound + start) }
    }

    private mutating func scanElements() throws(JSONError) -> [Range<Int>] {
        skipWhitespace()
        guard cursor.index < cursor.count else { throw cursor.unexpectedEnd("a JSON array") }
        guard cursor.base[cursor.index] == UInt8(ascii: "[") else {
            throw cursor.unexpectedByte(expected: "a JSON array")
        }
        var ranges: [Range<Int>] = []
        try scanArray { ranges.append($0) }
        skipWhitespace()
        if cursor.index < cursor.count {
            throw JSONError(
                .trailingGarbage, at: cursor.index,
                "Unexpected \(cursor.describeByte(at: cursor.index)) after the end of the JSON value.")
        }
        return ranges
    }
}
