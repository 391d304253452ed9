// Builds 18-character Salesforce-style record ids: a 3-character key prefix, a 2-character
// instance, a reserved '0', 9 base-62 characters, and the 3-character case-safe suffix.

/// Makes unique, realistic-looking 18-character ids.
package enum SalesforceID {
    private static let base62 = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    private static let suffixAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ012345".utf8)

    /// The id for record number `serial` (unique for serials below 62^5), with four random
    /// leading characters so ids do not sort in generation order.
    package static func make(prefix: String, serial: Int, random: inout SeededRandom) -> String {
        var id15 = Array(prefix.utf8)
        id15.append(contentsOf: "Dn0".utf8)
        for _ in 0..<4 { id15.append(base62[random.below(62)]) }
        var rest = serial
        var tail = [UInt8](repeating: UInt8(ascii: "0"), count: 5)
        for position in stride(from: 4, through: 0, by: -1) {
            tail[position] = base62[rest % 62]
            rest /= 62
        }
        id15.append(contentsOf: tail)
        return String(decoding: id15 + suffix(of: id15), as: UTF8.self)
    }

    /// The case-safe suffix: for each 5-character chunk, a 5-bit mask of which characters are
    /// upper-case letters (bit i for character i), mapped through A-Z0-5.
    private static func suffix(of id15: [UInt8]) -> [UInt8] {
        (0..<3).map { chunk in
            var mask = 0
            for offset in 0..<5 {
                let byte = id15[chunk * 5 + offset]
                if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { mask |= 1 << offset }
            }
            return suffixAlphabet[mask]
        }
    }
}
