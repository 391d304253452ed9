// Finding one member of an object in JSONWriter's canonical text without building a tree:
// keys are compared as the writer escapes them, values are skipped by scanning for their end.
// Used by encoded objects, whose bytes were validated when they were stored.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a search of canonical object text found.
enum CanonicalMemberSearch: Equatable {
    /// The member's value spans these bytes.
    case found(Range<Int>)
    /// The object has no member with that key.
    case absent
    /// The bytes are not canonical object text: the caller must parse them instead.
    case notCanonical
}

enum CanonicalObjectScan {
    /// The key as JSONWriter writes it, quotes included: the bytes a canonical object holds for it.
    static func quotedKey(_ key: String) -> [UInt8] {
        var quoted: [UInt8] = []
        quoted.reserveCapacity(key.utf8.count + 2)
        JSONWriter.appendString(key, to: &quoted)
        return quoted
    }

    /// The value of the top-level member `key` in the canonical object text `bytes`.
    static func member(_ key: String, in bytes: UnsafeBufferPointer<UInt8>) -> CanonicalMemberSearch {
        var key = key
        return key.withUTF8 { utf8 in
            guard let base = utf8.baseAddress,
                ByteScan.firstQuoteBackslashOrControl(base, from: 0, to: utf8.count).offset == utf8.count
            else {
                // The key needs escapes (or is empty): compare with its written form.
                return member(quotedKey(String(decoding: utf8, as: UTF8.self)), in: bytes)
            }
            return member(quotedContent: utf8, in: bytes)
        }
    }

    /// The value of the top-level member whose key is `quotedKey` (see ``quotedKey(_:)``) in
    /// the canonical object text `bytes`: no white space, every key escaped the writer's way,
    /// so equal keys have equal bytes.
    ///
    /// - Complexity: O(n) in the bytes before the member; strings are skipped 16 bytes at a time.
    static func member(_ quotedKey: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> CanonicalMemberSearch {
        quotedKey.withUnsafeBufferPointer { quoted in
            // Written keys are at least the two quotes.
            member(quotedContent: UnsafeBufferPointer(rebasing: quoted[1..<quoted.count - 1]), in: bytes)
        }
    }

    /// The value of the member whose key, as written between its quotes, is `quotedContent`.
    private static func member(
        quotedContent key: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>
    ) -> CanonicalMemberSearch {
        guard let base = bytes.baseAddress, bytes.count >= 2, base[0] == UInt8(ascii: "{") else { return .notCanonical }
        let count = bytes.count
        var i = 1
        if base[i] == UInt8(ascii: "}") { return i + 1 == count ? .absent : .notCanonical }
        while i < count, base[i] == UInt8(ascii: "\"") {
            // `key` is whole string content as the writer escapes it, so text that starts with
            // its bytes pairs its escapes the same way, and a quote right after them ends the
            // text's key: a match needs no scan for the key's end.
            let keyEnd: Int
            let matches: Bool
            if i + key.count + 1 < count, base[i + key.count + 1] == UInt8(ascii: "\""),
                key.isEmpty || memcmp(key.baseAddress!, base + i + 1, key.count) == 0
            {
                keyEnd = i + key.count + 2
                matches = true
            } else {
                guard let end = stringEnd(base, from: i, count: count) else { return .notCanonical }
                keyEnd = end
                matches = false
            }
            guard keyEnd < count, base[keyEnd] == UInt8(ascii: ":") else { return .notCanonical }
            let valueStart = keyEnd + 1
            guard let valueEnd = valueEnd(base, from: valueStart, count: count) else { return .notCanonical }
            if matches { return .found(valueStart..<valueEnd) }
            guard valueEnd < count else { return .notCanonical }
            switch base[valueEnd] {
            case UInt8(ascii: ","): i = valueEnd + 1
            case UInt8(ascii: "}"): return valueEnd + 1 == count ? .absent : .notCanonical
            default: return .notCanonical
            }
        }
        return .notCanonical
    }

    /// The text of the string value that spans `span` of `bytes` when it needs no decoding: no
    /// escape, no control byte, well-formed UTF-8 and within `limits`; nil otherwise (the
    /// caller reads the value with ``JSONReader``, which decides what is wrong with it).
    static func plainString(
        in bytes: UnsafeBufferPointer<UInt8>, span: Range<Int>, limits: JSONLimits = .default
    ) -> String? {
        guard let base = bytes.baseAddress, span.lowerBound >= 0, span.upperBound <= bytes.count,
            span.count >= 2, base[span.lowerBound] == UInt8(ascii: "\""),
            base[span.upperBound - 1] == UInt8(ascii: "\"")
        else { return nil }
        let start = span.lowerBound + 1, end = span.upperBound - 1
        let (stop, sawNonASCII) = ByteScan.firstQuoteBackslashOrControl(base, from: start, to: end)
        guard stop == end, end - start <= limits.maxStringBytes else { return nil }
        let content = UnsafeBufferPointer(start: base + start, count: end - start)
        // The same two ways JSONReader makes a string, so both give the same text.
        if !sawNonASCII { return String(decoding: content, as: UTF8.self) }
        return String(validating: content, as: UTF8.self)
    }

    /// The offset after the string whose opening quote is at `start`; nil when it does not end.
    private static func stringEnd(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int? {
        var i = start + 1
        while true {
            i = ByteScan.firstQuoteOrBackslash(base, from: i, to: count)
            guard i < count else { return nil }
            if base[i] == UInt8(ascii: "\"") { return i + 1 }
            i += 2  // the backslash and the byte it escapes
        }
    }

    /// The offset after the value that starts at `start`; nil when it is empty or does not end.
    private static func valueEnd(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int? {
        guard start < count else { return nil }
        switch base[start] {
        case UInt8(ascii: "\""):
            return stringEnd(base, from: start, count: count)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var i = start
            while i < count {
                switch base[i] {
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(base, from: i, count: count) else { return nil }
                    i = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return i + 1 }
                default:
                    break
                }
                i += 1
            }
            return nil
        default:
            // A number or literal ends at the next delimiter (canonical text has no white space).
            var i = start
            while i < count, base[i] != UInt8(ascii: ","), base[i] != UInt8(ascii: "}"), base[i] != UInt8(ascii: "]") {
                i += 1
            }
            return i == start ? nil : i
        }
    }
}
