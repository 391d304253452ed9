// Byte-wise string equality and ordering: JSON keys and index text compare by UTF-8 bytes,
// never by Swift's Unicode canonical equivalence.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension String {
    /// `true` when both strings have exactly the same UTF-8 bytes.
    package func utf8Equals(_ other: String) -> Bool {
        // Lengths first: a native string knows its UTF-8 count, and most comparisons (a path
        // against each index spec's) fail on it without copying either string for its bytes.
        guard utf8.count == other.utf8.count else { return false }
        var a = self
        var b = other
        return a.withUTF8 { left in
            b.withUTF8 { right in
                left.count == right.count
                    && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
    }

    /// Compares by UTF-8 bytes: negative, zero or positive as `self` sorts before, with or
    /// after `other`.
    package func utf8Compare(_ other: String) -> Int {
        var a = self
        var b = other
        return a.withUTF8 { left in
            b.withUTF8 { right in
                let common = Swift.min(left.count, right.count)
                if common > 0 {
                    let order = memcmp(left.baseAddress!, right.baseAddress!, common)
                    if order != 0 { return Int(order) }
                }
                return left.count - right.count
            }
        }
    }
}
