// A token as a dictionary key and sort key: equality, hashing and order by UTF-8 bytes, the way
// FTS5 compares terms (Swift's String == would merge canonically equivalent spellings).

/// A folded token compared byte for byte; the key of the full-text term table.
///
/// A value type; safe to pass between threads.
struct TermKey: Sendable, Hashable, Comparable {
    /// The token text; valid UTF-8 like every String.
    let text: String
    /// FNV-1a of the text's bytes, computed once: the term table hashes and shards by it, and
    /// compares bytes only when it matches.
    let bytesHash: UInt64

    init(_ text: String) {
        self.text = text
        bytesHash = TermKey.withUTF8(text) { TermKey.fnv1a($0) }
    }

    /// A key whose hash the caller computed with ``fnv1a(_:)`` over `text`'s bytes.
    init(_ text: String, bytesHash: UInt64) {
        self.text = text
        self.bytesHash = bytesHash
    }

    static func == (lhs: TermKey, rhs: TermKey) -> Bool {
        lhs.bytesHash == rhs.bytesHash && bytesEqual(lhs.text, rhs.text)
    }

    static func < (lhs: TermKey, rhs: TermKey) -> Bool {
        compareBytes(lhs.text, rhs.text) < 0
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(bytesHash)
    }

    /// FNV-1a over `bytes`, with a final mix so that the low bits (shard and bucket choice)
    /// depend on every byte.
    static func fnv1a(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash ^ (hash >> 29)
    }

    /// The number of UTF-8 bytes of the token.
    var byteCount: Int { text.utf8.count }

    /// Whether the token's bytes start with `prefix`'s bytes.
    func hasBytePrefix(_ prefix: TermKey) -> Bool {
        TermKey.withUTF8(text) { whole in
            TermKey.withUTF8(prefix.text) { start in
                start.count <= whole.count
                    && (start.isEmpty || memcmpEqual(whole.baseAddress!, start.baseAddress!, start.count))
            }
        }
    }

    /// Whether two strings have the same UTF-8 bytes.
    static func bytesEqual(_ a: String, _ b: String) -> Bool {
        TermKey.withUTF8(a) { x in
            TermKey.withUTF8(b) { y in
                x.count == y.count && (x.isEmpty || memcmpEqual(x.baseAddress!, y.baseAddress!, x.count))
            }
        }
    }

    /// Compares two strings' UTF-8 bytes as unsigned bytes (which is code point order):
    /// negative, zero or positive.
    static func compareBytes(_ a: String, _ b: String) -> Int {
        TermKey.withUTF8(a) { x in
            TermKey.withUTF8(b) { y in
                let common = min(x.count, y.count)
                for index in 0..<common where x[index] != y[index] {
                    return x[index] < y[index] ? -1 : 1
                }
                return x.count - y.count
            }
        }
    }

    /// Feeds a string's UTF-8 bytes (and their count) to a hasher.
    static func hashBytes(of text: String, into hasher: inout Hasher) {
        TermKey.withUTF8(text) { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: bytes)
        }
    }
}

extension TermKey {
    /// Runs `body` over a string's UTF-8 bytes, without copying when the string is contiguous.
    @inline(__always)
    static func withUTF8<R>(_ text: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        var copy = text
        return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
}

@inline(__always)
private func memcmpEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    for index in 0..<count
    where a.load(fromByteOffset: index, as: UInt8.self)
        != b.load(fromByteOffset: index, as: UInt8.self)
    {
        return false
    }
    return true
}
