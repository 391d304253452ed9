// Limits the reader enforces, each with its own error one past the limit.

/// Bounds on what ``JSONReader`` accepts. A value at a limit is accepted; one past it is
/// rejected with that limit's ``JSONError/Code``.
public struct JSONLimits: Sendable, Hashable {
    /// Deepest nesting of arrays and objects; the outermost container is depth 1.
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
}
