// Smart SQL translated the way SmartStore's SmartSqlHelper does it
// (shared/reference/smartstore-semantics.md, 2.6): `{soup}` becomes the soup's TABLE_n and
// `{soup:path}` its column (TABLE_n_i, no table prefix) or `json_extract(soup, '$.path')`;
// braces inside quoted strings are left alone. One linear pass, no regular expressions.

/// Translates Smart SQL over the soups of one SmartStore-shaped database.
struct SmartStoreSmartSQL {
    /// Each soup's translation of paths, by soup name.
    private let soups: [String: SmartStoreQuerySQL]

    init(soups: [String: SmartStoreQuerySQL]) {
        self.soups = soups
    }

    /// The SQL SQLite runs for `smartSQL`; throws on an unknown soup or a malformed reference.
    func translate(_ smartSQL: String) throws -> String {
        let characters = Array(smartSQL)
        var output = ""
        var index = 0
        var quoted = false
        while index < characters.count {
            let character = characters[index]
            if character == "'" { quoted.toggle() }
            guard character == "{", !quoted else {
                output.append(character)
                index += 1
                continue
            }
            guard let close = characters[index...].firstIndex(of: "}") else {
                throw BenchFailure("unclosed { at character \(index) of \(smartSQL)")
            }
            let reference = String(characters[(index + 1)..<close])
            let parts = reference.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count <= 2, let soup = soups[parts[0]] else {
                throw BenchFailure("unknown soup or bad reference {\(reference)} at character \(index) of \(smartSQL)")
            }
            output += parts.count == 1 ? soup.table : soup.column(parts[1])
            index = close + 1
        }
        return output
    }
}
