// JSONDocumentScanner's tokens: strings and keys (checked step for step as JSONReader reads
// them, escapes decoded by its own code), numbers (read by JSONReader's own code), and the
// checks that they are spelled the way JSONWriter writes them.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension JSONDocumentScanner {
    // MARK: - Strings

    /// Scans the string value whose opening quote is at the cursor.
    mutating func scanString() throws(JSONError) {
        let quote = cursor.index
        if try scanPlainString(quote: quote) == nil {
            var scratch: [UInt8] = []
            swap(&scratch, &self.scratch)
            defer { swap(&scratch, &self.scratch) }
            scratch.removeAll(keepingCapacity: true)
            try scanEscapedString(quote: quote, into: &scratch)
        }
    }

    /// Checks the string at `quote` when it has no escape, as JSONReader does, and returns the
    /// offset of its closing quote (the cursor then after it); returns `nil`, the cursor
    /// unmoved, when it has an escape.
    private mutating func scanPlainString(quote: Int) throws(JSONError) -> Int? {
        let base = cursor.base
        let start = quote + 1
        let (i, sawNonASCII) = ByteScan.firstQuoteBackslashOrControl(base, from: start, to: cursor.count)
        guard i < cursor.count else {
            throw cursor.unexpectedEnd("the closing quote of the string that starts at byte \(quote)")
        }
        switch base[i] {
        case UInt8(ascii: "\""):
            try cursor.checkStringLength(i - start, quote: quote)
            if sawNonASCII, let bad = UTF8Validation.firstInvalidOffsetSkippingASCII(from: start, to: i, base) {
                throw JSONError(.invalidUTF8, at: bad, "The string is not well-formed UTF-8 at this byte.")
            }
            cursor.index = i + 1
            return i
        case UInt8(ascii: "\\"):
            return nil
        default:
            throw cursor.controlCharacter(at: i)
        }
    }

    /// Checks the string at `quote`, which has an escape, step for step as JSONReader's
    /// `readString` does (decoding escapes with its own `decodeEscape`), appending the decoded
    /// bytes to `decoded`; notes whether each escape is one JSONWriter writes.
    private mutating func scanEscapedString(quote: Int, into decoded: inout [UInt8]) throws(JSONError) {
        let base = cursor.base
        let count = cursor.count
        let decodedStart = decoded.count
        var i = quote + 1
        while i < count {
            let (runEnd, runNonASCII) = ByteScan.firstQuoteBackslashOrControl(base, from: i, to: count)
            if runNonASCII, let bad = UTF8Validation.firstInvalidOffsetSkippingASCII(from: i, to: runEnd, base) {
                throw JSONError(.invalidUTF8, at: bad, "The string is not well-formed UTF-8 at this byte.")
            }
            decoded.append(contentsOf: UnsafeBufferPointer(start: base + i, count: runEnd - i))
            i = runEnd
            guard i < count else { break }
            switch base[i] {
            case UInt8(ascii: "\""):
                cursor.index = i + 1
                try cursor.checkStringLength(decoded.count - decodedStart, quote: quote)
                return
            case UInt8(ascii: "\\"):
                let next = try cursor.decodeEscape(at: i, into: &decoded)
                if isCanonical, !escapeIsCanonical(at: i) { isCanonical = false }
                i = next
            default:
                throw cursor.controlCharacter(at: i)
            }
        }
        throw cursor.unexpectedEnd("the closing quote of the string that starts at byte \(quote)")
    }

    /// Whether the valid escape whose backslash is at `i` is one JSONWriter writes: `\"`,
    /// `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, or `\u00xx` (lower-case hex) for any other control
    /// character. `\/`, upper-case hex and escapes of other characters are not.
    private func escapeIsCanonical(at i: Int) -> Bool {
        let base = cursor.base
        switch base[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        case UInt8(ascii: "u"):
            guard base[i + 2] == UInt8(ascii: "0"), base[i + 3] == UInt8(ascii: "0") else { return false }
            let high = base[i + 4]
            let low = base[i + 5]
            guard high == UInt8(ascii: "0") || high == UInt8(ascii: "1") else { return false }
            let lowValue: UInt8
            switch low {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): lowValue = low - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): lowValue = low - UInt8(ascii: "a") + 10
            default: return false
            }
            let value = (high - UInt8(ascii: "0")) << 4 | lowValue
            // These five have short escapes, which the writer prefers.
            return !(value == 0x08 || value == 0x09 || value == 0x0A || value == 0x0C || value == 0x0D)
        default:
            return false  // `\/`
        }
    }

    // MARK: - Keys

    /// Scans the key whose opening quote is at the cursor; returns where its decoded bytes are.
    mutating func scanKey() throws(JSONError) -> SeenKey {
        let quote = cursor.index
        if let end = try scanPlainString(quote: quote) {
            let start = quote + 1
            let hash = Self.fingerprint(UnsafeBufferPointer(start: cursor.base + start, count: end - start))
            return SeenKey(hash: hash, start: start, length: end - start, inArena: false)
        }
        var decoded: [UInt8] = []
        swap(&decoded, &arena)
        defer { swap(&decoded, &arena) }
        let start = decoded.count
        try scanEscapedString(quote: quote, into: &decoded)
        let hash = decoded.withUnsafeBufferPointer { all in
            Self.fingerprint(UnsafeBufferPointer(rebasing: all[start...]))
        }
        return SeenKey(hash: hash, start: start, length: decoded.count - start, inArena: true)
    }

    /// Calls `body` with the decoded bytes of `key`.
    @inline(__always)
    private func withBytes<R>(of key: SeenKey, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if !key.inArena { return body(UnsafeBufferPointer(start: cursor.base + key.start, count: key.length)) }
        return arena.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[key.start..<key.start + key.length]))
        }
    }

    private func sameBytes(_ a: SeenKey, _ b: SeenKey) -> Bool {
        guard a.length == b.length else { return false }
        if a.length == 0 { return true }
        return withBytes(of: a) { left in
            withBytes(of: b) { right in memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0 }
        }
    }

    /// Whether `key` repeats a key of the object being read (those from `stackStart`). Keys are
    /// equal when their decoded bytes are. From 32 members on, a set of hashes keeps it O(1).
    func isDuplicate(_ key: SeenKey, since stackStart: Int, set: inout Set<UInt64>?) -> Bool {
        if seenKeys.count - stackStart >= 32 {
            if set == nil { set = Set(seenKeys[stackStart...].lazy.map(\.hash)) }
            if set!.insert(key.hash).inserted { return false }
        }
        var position = stackStart
        while position < seenKeys.count {
            if seenKeys[position].hash == key.hash, sameBytes(seenKeys[position], key) { return true }
            position += 1
        }
        return false
    }

    /// The key as text, for an error message.
    func keyText(_ key: SeenKey) -> String {
        withBytes(of: key) { String(decoding: $0, as: UTF8.self) }
    }

    /// The position in the requested keys of `key`, or `nil`.
    func wantedSlot(for key: SeenKey) -> Int? {
        guard wanted.mayContain(key.hash) else { return nil }
        for slot in wanted.hashes.indices where wanted.hashes[slot] == key.hash && wanted.keys[slot].count == key.length {
            if key.length == 0 { return slot }
            let equal = withBytes(of: key) { bytes in
                wanted.keys[slot].withUnsafeBufferPointer { memcmp(bytes.baseAddress!, $0.baseAddress!, bytes.count) == 0 }
            }
            if equal { return slot }
        }
        return nil
    }

    /// FNV-1a over the bytes: keys are short, and equal keys must hash equally.
    static func fingerprint(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    // MARK: - Numbers

    /// Scans the number at the cursor with JSONReader's own number reader and notes whether it
    /// is spelled as JSONWriter writes its value: an integer's plain decimal (`-0` is not:
    /// it reads as 0), a double's shortest round-trip description.
    mutating func scanNumber() throws(JSONError) -> JSONMemberKind {
        let start = cursor.index
        switch try cursor.readNumber() {
        case .integer(let value):
            if value == 0, cursor.base[start] == UInt8(ascii: "-") { isCanonical = false }
            return .integer(value)
        case .double(let value):
            if isCanonical {
                var text = value.description
                let written = UnsafeBufferPointer(start: cursor.base + start, count: cursor.index - start)
                isCanonical = text.withUTF8 { $0.elementsEqual(written) }
            }
            return .other
        default:
            return .other
        }
    }
}
