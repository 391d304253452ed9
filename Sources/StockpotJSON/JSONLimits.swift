// Limits the reader enforces, each with its own error one past the limit.

/// Bounds on what ``JSONReader`` accepts. A value at a limit is accepted; one past it is
/// rejected with that limit's ``JSONError/Code``.
public struct JSONLimits: Sendable, Hashable {
    /// Deepest nesting of arrays and objects; the outermost container is depth 1. Values above
    /// ``maxSupportedDepth`` act as it: the reader and scanner recurse once per level, and no
    /// limit may let input overflow the stack.
    public var maxDepth: Int
    /// Largest input, in bytes.
    public var maxInputBytes: Int
    /// Longest string (a key or a value), in UTF-8 bytes after escapes are decoded.
    public var maxStringBytes: Int

    /// Creates limits; the defaults are those of the `stockpot exec` protocol.
    public init(
        maxDepth: Int = 512, maxInputBytes: Int = 64 << 20, maxStringBytes: Int = 16 << 20
    ) {
        self.maxDepth = maxDepth
        self.maxInputBytes = maxInputBytes
        self.maxStringBytes = maxStringBytes
    }

    /// Depth 512, 64 MiB of input, 16 MiB per string.
    public static let `default` = JSONLimits()

    /// The deepest nesting any limit allows: 1,024 levels, which the recursive reader,
    /// scanner, writer and value tree handle within a 4 MiB stack even in a debug build
    /// (about 2.2 KB of stack per level there, under 1 KB in release).
    public static let maxSupportedDepth = 1_024

    /// ``maxDepth``, capped at ``maxSupportedDepth``: the depth the reader enforces.
    public var effectiveMaxDepth: Int { min(maxDepth, Self.maxSupportedDepth) }
}
