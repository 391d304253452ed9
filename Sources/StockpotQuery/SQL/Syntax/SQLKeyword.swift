// The keywords of Smart SQL's lexer and their case-insensitive lookup from UTF-8 bytes. Only the
// words the grammar decides on are keywords; any other word is an identifier.

/// A keyword of the Smart SQL grammar.
enum SQLKeyword: String, CaseIterable, Sendable {
    case all = "ALL", and = "AND", `as` = "AS", asc = "ASC", between = "BETWEEN", by = "BY"
    case `case` = "CASE", cast = "CAST", collate = "COLLATE", cross = "CROSS", desc = "DESC"
    case distinct = "DISTINCT", `else` = "ELSE", end = "END", escape = "ESCAPE"
    case except = "EXCEPT", exists = "EXISTS", from = "FROM", full = "FULL", glob = "GLOB"
    case group = "GROUP", having = "HAVING", `in` = "IN", inner = "INNER"
    case intersect = "INTERSECT", `is` = "IS", isnull = "ISNULL", join = "JOIN", left = "LEFT"
    case like = "LIKE", limit = "LIMIT", match = "MATCH", natural = "NATURAL", not = "NOT"
    case notnull = "NOTNULL", null = "NULL", offset = "OFFSET", on = "ON", or = "OR"
    case order = "ORDER", outer = "OUTER", regexp = "REGEXP", right = "RIGHT"
    case select = "SELECT", then = "THEN", union = "UNION", using = "USING", when = "WHEN"
    case `where` = "WHERE", window = "WINDOW"

    /// Keywords SQLite lets stand for a name where its grammar expects one (its `%fallback ID`
    /// list): these may be aliases and function names.
    var canBeName: Bool {
        switch self {
        case .asc, .desc, .by, .cast, .end, .like, .glob, .regexp, .match, .offset: true
        default: false
        }
    }

    /// SQLite's join keywords, which may follow `AS` as an alias.
    var isJoinKeyword: Bool {
        switch self {
        case .cross, .full, .inner, .left, .natural, .outer, .right: true
        default: false
        }
    }

    /// The keywords, indexed by length, as upper-case ASCII bytes.
    private static let byLength: [[(bytes: [UInt8], keyword: SQLKeyword)]] = {
        var table = Array(repeating: [(bytes: [UInt8], keyword: SQLKeyword)](), count: 10)
        for keyword in SQLKeyword.allCases {
            table[keyword.rawValue.utf8.count].append((Array(keyword.rawValue.utf8), keyword))
        }
        return table
    }()

    /// The keyword spelled by `bytes[range]` in any ASCII case, or nil.
    /// - Complexity: O(1): at most a few dozen byte comparisons.
    static func lookup(_ bytes: [UInt8], _ range: Range<Int>) -> SQLKeyword? {
        guard range.count < byLength.count else { return nil }
        candidates: for (spelling, keyword) in byLength[range.count] {
            for (offset, upper) in spelling.enumerated() {
                var byte = bytes[range.lowerBound + offset]
                if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") { byte -= 32 }
                if byte != upper { continue candidates }
            }
            return keyword
        }
        return nil
    }
}
