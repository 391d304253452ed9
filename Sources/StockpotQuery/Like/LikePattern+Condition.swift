// A compiled LIKE pattern as the condition a registered index kind is asked to answer
// (docs/indexes.md), so that the kind matches exactly as the ordered index's search does.

import StockpotIndex
import StockpotJSON

extension LikePattern {
    /// This pattern, whose text is `text`, as a ``LikeCondition``: a value matches when the
    /// text SQLite gives it (numbers in SQLite's spelling, never null) matches the pattern.
    func condition(text: String) -> LikeCondition {
        let pattern = self
        return LikeCondition(pattern: text, literalPrefix: String(decoding: literalPrefix, as: UTF8.self)) { value in
            guard let text = SQLiteText.text(of: value) else { return false }
            return pattern.matches(text)
        }
    }
}
