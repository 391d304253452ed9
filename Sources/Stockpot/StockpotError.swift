// The public error type of the Stockpot API: the protocol's error codes, a sentence, and
// what it is about (soup, path, entry id).

import StockpotStorage

/// Why a Stockpot operation failed.
///
/// `code` is one of the error codes of the `stockpot exec` protocol and is what callers match
/// on; `message` is one sentence naming the soup, path, id or position involved.
public struct StockpotError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A matchable reason, spelled as in the protocol. New codes may be added.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as the protocol spells it.
        public let rawValue: String
        /// Creates a code from its protocol name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The protocol name.
        public var description: String { rawValue }

        /// A soup name is missing, empty, or too long.
        public static let invalidSoupName = Code(rawValue: "invalid_soup_name")
        /// `indexSpecs` is missing or empty.
        public static let noIndexSpecs = Code(rawValue: "no_index_specs")
        /// An index spec has an empty or too long path, an unknown type, or repeats a path.
        public static let invalidIndexSpec = Code(rawValue: "invalid_index_spec")
        /// The soup does not exist.
        public static let soupNotFound = Code(rawValue: "soup_not_found")
        /// An entry is not a JSON object, or a system field has the wrong type.
        public static let invalidEntry = Code(rawValue: "invalid_entry")
        /// An upserted `_soupEntryId` does not exist.
        public static let entryNotFound = Code(rawValue: "entry_not_found")
        /// `externalIdPath` has no index.
        public static let externalIdNotIndexed = Code(rawValue: "external_id_not_indexed")
        /// An entry has no value (or null) at `externalIdPath`.
        public static let externalIdMissing = Code(rawValue: "external_id_missing")
        /// More than one stored entry has the entry's external id.
        public static let externalIdNotUnique = Code(rawValue: "external_id_not_unique")
        /// A write would give two entries the same value on a unique index.
        public static let uniqueViolation = Code(rawValue: "unique_violation")
        /// A query spec is malformed.
        public static let invalidQuery = Code(rawValue: "invalid_query")
        /// A Smart SQL statement does not parse.
        public static let smartSqlSyntax = Code(rawValue: "smart_sql_syntax")
        /// A Smart SQL statement is not a SELECT.
        public static let readOnlyStatement = Code(rawValue: "read_only_statement")
        /// A document, name, path or request is over a documented limit.
        public static let limitExceeded = Code(rawValue: "limit_exceeded")
        /// Another process holds the store.
        public static let storeLocked = Code(rawValue: "store_locked")
        /// The store was closed; open it again to go on.
        public static let storeClosed = Code(rawValue: "store_closed")
        /// A store name (under a `StoreDirectory`) is empty, too long or not a plain file name.
        public static let invalidStoreName = Code(rawValue: "invalid_store_name")
        /// A statement or request went past a documented time or memory budget; nothing was
        /// changed.
        public static let resourceLimit = Code(rawValue: "resource_limit")
        /// The file system failed.
        public static let ioError = Code(rawValue: "io_error")
        /// Stored bytes do not verify.
        public static let corruption = Code(rawValue: "corruption")
        /// A bug; never expected.
        public static let `internal` = Code(rawValue: "internal")
        /// The change feed was asked for changes from before the last purge of tombstones (or
        /// from a sequence this store never reached): the caller must resynchronise.
        public static let changesExpired = Code(rawValue: "changes_expired")
        /// An argument is out of its range (a negative sequence, a limit below 1).
        public static let invalidArgument = Code(rawValue: "invalid_argument")
        /// A write was asked of a store opened read-only (``StoreOptions/readOnly``).
        public static let readOnly = Code(rawValue: "read_only")
        /// The store is encrypted and was opened without a key (docs/encryption.md).
        public static let keyRequired = Code(rawValue: "key_required")
        /// The key or passphrase is not the store's.
        public static let wrongKey = Code(rawValue: "wrong_key")
        /// A key was given for a store that is not encrypted.
        public static let notEncrypted = Code(rawValue: "not_encrypted")
        /// A store write (or close) was called inside `write {}` of the same store, on the
        /// same thread: it would wait for itself. Use the transaction instead.
        public static let nestedWrite = Code(rawValue: "nested_write")
        /// An index spec names a kind (``IndexSpec/kind``) that this process has not
        /// registered with `IndexKinds.register` (docs/indexes.md).
        public static let unknownIndexKind = Code(rawValue: "unknown_index_kind")
        /// The async call's task was cancelled: a write before it started (nothing written),
        /// a Smart SQL statement at the next row it visited.
        public static let cancelled = Code(rawValue: "cancelled")
    }

    /// Why the operation failed.
    public var code: Code
    /// One sentence a person can act on.
    public var message: String
    /// The storage error underneath, when there is one (for the tools, which name the file
    /// and offset it carries; the engine's error type is not part of the public API).
    package var underlying: StorageError?

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Creates an error with the storage error underneath.
    package init(_ code: Code, _ message: String, underlying: StorageError?) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// The error a storage failure surfaces as: `store_locked`, `corruption` or `io_error`
    /// (a poisoned store is an `io_error`: the write that failed was an I/O failure).
    package init(_ storage: StorageError) {
        let code: Code
        switch storage.code {
        case .storeLocked: code = .storeLocked
        case .corruption: code = .corruption
        case .limitExceeded: code = .limitExceeded
        case .closed: code = .storeClosed
        case .readOnly: code = .readOnly
        case .keyRequired: code = .keyRequired
        case .wrongKey: code = .wrongKey
        case .notEncrypted: code = .notEncrypted
        case .invalidArgument: code = .internal
        default: code = .ioError
        }
        self.init(code, storage.description, underlying: storage)
    }

    /// The code and message.
    public var description: String { "\(code): \(message)" }
}
