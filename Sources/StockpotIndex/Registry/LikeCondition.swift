// A LIKE pattern as a registered index kind sees it (docs/indexes.md): the pattern's text,
// the literal text every match starts with, and a test of one value with SQLite's LIKE
// semantics. The query layer compiles the pattern and supplies the test, so that a kind
// matches exactly as the ordered index's answer would.

import StockpotJSON

/// The condition of a `like` query (``IndexOperation/like(_:)``).
///
/// Two conditions are equal when their patterns are.
public struct LikeCondition: Sendable {
    /// The pattern as the query gave it: `%` any run of characters, `_` one character,
    /// ASCII letters matching either case.
    public let pattern: String
    /// The literal text every match starts with (ASCII letters in either case), possibly
    /// empty: a kind that keeps its values sorted can start there.
    public let literalPrefix: String
    private let test: @Sendable (IndexValue) -> Bool

    /// A condition for `pattern` whose test is `test`.
    package init(pattern: String, literalPrefix: String, test: @escaping @Sendable (IndexValue) -> Bool) {
        self.pattern = pattern
        self.literalPrefix = literalPrefix
        self.test = test
    }

    /// Whether `value` matches, as SQLite's LIKE decides it: text by the pattern, numbers
    /// through the text SQLite writes for them, null never.
    public func matches(_ value: IndexValue) -> Bool {
        test(value)
    }
}

extension LikeCondition: Hashable {
    public static func == (lhs: LikeCondition, rhs: LikeCondition) -> Bool {
        lhs.pattern == rhs.pattern
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
    }
}
