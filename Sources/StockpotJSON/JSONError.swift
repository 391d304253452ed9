// The module's one error type: why input was rejected, and at which byte.

/// Why ``JSONReader`` rejected its input, with the byte offset where it noticed.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A matchable reason. New codes may be added; switch with a `default`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's stable name.
        public let rawValue: String
        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The input ended inside a value.
        public static let unexpectedEnd = Code(rawValue: "unexpected_end")
        /// A byte that cannot start or continue a value here.
        public static let unexpectedCharacter = Code(rawValue: "unexpected_character")
        /// A comma right before `]` or `}`.
        public static let trailingComma = Code(rawValue: "trailing_comma")
        /// A number with a leading zero, such as `01`.
        public static let leadingZero = Code(rawValue: "leading_zero")
        /// A malformed number, such as `1.` or `-`.
        public static let invalidNumber = Code(rawValue: "invalid_number")
        /// A number too large for a double.
        public static let numberOutOfRange = Code(rawValue: "number_out_of_range")
        /// An unknown escape or a malformed `\u` escape.
        public static let invalidEscape = Code(rawValue: "invalid_escape")
        /// A `\u` escape of a lone UTF-16 surrogate.
        public static let loneSurrogate = Code(rawValue: "lone_surrogate")
        /// An unescaped control character (below U+0020) inside a string.
        public static let controlCharacter = Code(rawValue: "control_character")
        /// Bytes that are not well-formed UTF-8.
        public static let invalidUTF8 = Code(rawValue: "invalid_utf8")
        /// An object that repeats a key.
        public static let duplicateKey = Code(rawValue: "duplicate_key")
        /// Something other than white space after the value.
        public static let trailingGarbage = Code(rawValue: "trailing_garbage")
        /// Nesting deeper than ``JSONLimits/maxDepth``.
        public static let depthLimitExceeded = Code(rawValue: "depth_limit_exceeded")
        /// Input longer than ``JSONLimits/maxInputBytes``.
        public static let inputTooLarge = Code(rawValue: "input_too_large")
        /// A string longer than ``JSONLimits/maxStringBytes``.
        public static let stringTooLong = Code(rawValue: "string_too_long")
    }

    /// Why the input was rejected.
    public var code: Code
    /// The offset of the offending byte from the start of the input.
    public var offset: Int
    /// One sentence a person can act on.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, at offset: Int, _ message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    /// The message with the code and offset, for logs and CLI output.
    public var description: String { "\(message) (\(code) at byte \(offset))" }
}
