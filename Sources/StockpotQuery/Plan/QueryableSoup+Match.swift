// Full-text match expressions parsed for one soup: `{soup:path}` column filters resolved to
// the soup's full-text columns, bare terms optionally restricted to one path.

import StockpotIndex

extension QueryableSoup {
    /// The full-text index, or `invalid_query` when the soup has no full_text spec.
    package func requiredFullTextIndex() throws(QueryError) -> FullTextIndex {
        guard let index = fullTextIndex else {
            throw .invalid("Soup \"\(name)\" has no full_text index to match against.")
        }
        return index
    }

    /// Parses `text` as a match expression over this soup; with `path`, every bare term is
    /// restricted to that full_text path.
    ///
    /// - Throws: `invalid_query` when `path` has no full_text index or the expression is
    ///   malformed (with the character position).
    package func matchExpression(_ text: String, restrictedTo path: String?) throws(QueryError) -> MatchExpression {
        var column: Int?
        if let path {
            guard let specIndex = specIndex(forPath: path), let fullTextColumn = fullTextColumn(ofSpec: specIndex)
            else {
                throw .invalid("The path \"\(path)\" has no full_text index in soup \"\(name)\"; match needs one.")
            }
            // Restricting to the only column there is restricts nothing, and keeps counts on
            // the posting-list fast path.
            column = (try requiredFullTextIndex()).columnCount == 1 ? nil : fullTextColumn
        }
        do {
            return try MatchExpression(parsing: text, restrictTo: column) { reference in
                // `{soup:path}`: this soup's name, then a full_text path.
                guard let colon = reference.firstIndex(of: ":"),
                    String(reference[..<colon]).utf8Equals(name),
                    let specIndex = specIndex(forPath: String(reference[reference.index(after: colon)...]))
                else { return nil }
                return fullTextColumn(ofSpec: specIndex)
            }
        } catch {
            throw .invalid(
                "The match expression is malformed at character \(error.characterOffset(in: text)): \(error.expected).")
        }
    }
}
