// The storage layer's one error type: a matchable code, a sentence, and where it happened.

/// Why a storage operation failed.
///
/// `code` is what callers match on; `message` is one sentence a person can act on; `file`,
/// `offset` and `errno` say where and why when they are known.
public struct StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A matchable reason. New codes may be added; switch with a `default`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's stable name.
        public let rawValue: String
        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// A system call failed (including a full disk); `errno` says which error.
        public static let ioError = Code(rawValue: "io_error")
        /// Bytes on disk do not verify (checksum, length, magic, a missing file).
        public static let corruption = Code(rawValue: "corruption")
        /// Another process (or another open in this one) holds the store.
        public static let storeLocked = Code(rawValue: "store_locked")
        /// An earlier write or fsync failed; the store refuses writes until it is reopened.
        public static let poisoned = Code(rawValue: "poisoned")
        /// The store has been closed.
        public static let closed = Code(rawValue: "closed")
        /// A key, value or batch is over a documented limit.
        public static let limitExceeded = Code(rawValue: "limit_exceeded")
        /// An argument is not valid (an empty key, a bad option).
        public static let invalidArgument = Code(rawValue: "invalid_argument")
        /// A file or directory that must exist does not.
        public static let notFound = Code(rawValue: "not_found")
        /// A write (or compaction, or snapshot) was asked of a store opened read-only.
        public static let readOnly = Code(rawValue: "read_only")
        /// The store is encrypted and no key was given (docs/encryption.md).
        public static let keyRequired = Code(rawValue: "key_required")
        /// The key or passphrase given is not the store's.
        public static let wrongKey = Code(rawValue: "wrong_key")
        /// A key was given for a store that is not encrypted.
        public static let notEncrypted = Code(rawValue: "not_encrypted")
    }

    /// Why the operation failed.
    public var code: Code
    /// One sentence a person can act on.
    public var message: String
    /// The file involved, when there is one.
    public var file: String?
    /// The byte offset in `file`, when it matters.
    public var offset: Int?
    /// The system error number, for `ioError`.
    public var errno: Int32?

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, file: String? = nil, offset: Int? = nil,
        errno: Int32? = nil
    ) {
        self.code = code
        self.message = message
        self.file = file
        self.offset = offset
        self.errno = errno
    }

    /// A corruption error naming the file and offset.
    public static func corruption(_ message: String, file: String, offset: Int? = nil) -> StorageError {
        StorageError(.corruption, message, file: file, offset: offset)
    }

    /// The message with its code and location, for logs and CLI output.
    public var description: String {
        var text = "\(message) (\(code)"
        if let file { text += ", \(file)" }
        if let offset { text += " at byte \(offset)" }
        if let errno { text += ", errno \(errno)" }
        return text + ")"
    }
}
