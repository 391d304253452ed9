// The value of one select path in a result row: what Smart SQL's {soup:path} gives (the
// index's value for a non-json1 index, the json1 value otherwise, system values by name).

import StockpotJSON

/// Values of select paths.
enum SelectedValue {
    /// The value of `path` for an entry.
    static func value(at path: String, of document: JSONValue, created: Int64, in soup: SoupState) -> JSONValue {
        if path.utf8Equals(SystemField.soup) { return document }
        if path.utf8Equals(SystemField.created) { return .integer(created) }
        if let position = soup.specIndex(forPath: path) {
            let spec = soup.record.specs[position]
            return json(IndexValue(document: document, path: spec.jsonPath, type: spec.type))
        }
        return json(IndexValue(document: document, path: JSONPath(path), type: .json1))
    }

    /// An index value as JSON: text as a string, numbers as numbers.
    static func json(_ value: IndexValue) -> JSONValue {
        switch value {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .double(let double): .double(double)
        case .text(let text): .string(text)
        }
    }
}
