// The one error type of sync: a matchable code, a message with no password in it, and the
// soup and server SQLSTATE it concerns (docs/sync.md, "Errors").

import Stockpot

/// An error from syncing a store with a PostgreSQL server.
///
/// Messages never contain a password: connection strings are shown redacted
/// (``ConnectionString/redacted``). `SyncError` is a value type and safe to share.
public struct SyncError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, matchable in `catch` (`catch let e as SyncError where e.code == .conflict`).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The connection string does not parse, or names an option libpq does not know.
        public static let badConnectionString = Code(rawValue: "bad_connection_string")
        /// The server could not be reached or refused the login.
        public static let connectionFailed = Code(rawValue: "connection_failed")
        /// The connection dropped during a sync; what was committed stays, a rerun resumes.
        public static let connectionLost = Code(rawValue: "connection_lost")
        /// The server's role may not do what sync needs (SQLSTATE 42501).
        public static let permissionDenied = Code(rawValue: "permission_denied")
        /// The server has no sync tables for the soup (run `stockpot sync init-server`).
        public static let serverNotInitialized = Code(rawValue: "server_not_initialized")
        /// The server's sync tables are of another format or shape than this build expects.
        public static let schemaMismatch = Code(rawValue: "schema_mismatch")
        /// The soup cannot be synced: it does not exist or has no `newid` key spec.
        public static let soupNotSyncable = Code(rawValue: "soup_not_syncable")
        /// Sync up found conflicts and the policy was `fail`; nothing was written for them.
        public static let conflict = Code(rawValue: "conflict")
        /// A document the server will not store (jsonb refuses `\u0000`).
        public static let documentRejected = Code(rawValue: "document_rejected")
        /// The sync was cancelled; what was committed stays, a rerun resumes.
        public static let cancelled = Code(rawValue: "cancelled")
        /// An argument is out of range (a filter that is not a JSON object, a batch size below 1).
        public static let invalidArgument = Code(rawValue: "invalid_argument")
        /// Another sync of this store is running.
        public static let syncRunning = Code(rawValue: "sync_running")
        /// The server answered with an error sync does not expect (the SQLSTATE is kept).
        public static let serverError = Code(rawValue: "server_error")
        /// The local store failed (its ``StockpotError`` is the underlying error).
        public static let storeError = Code(rawValue: "store_error")
    }

    /// What went wrong.
    public var code: Code
    /// A sentence for a person, without passwords.
    public var message: String
    /// The soup concerned, when there is one.
    public var soup: String?
    /// The server's SQLSTATE, when the server reported the error.
    public var sqlState: String?
    /// The store error behind a `store_error`.
    public var underlying: StockpotError?

    /// Creates an error.
    public init(_ code: Code, _ message: String, soup: String? = nil, sqlState: String? = nil, underlying: StockpotError? = nil) {
        self.code = code
        self.message = message
        self.soup = soup
        self.sqlState = sqlState
        self.underlying = underlying
    }

    /// A store error met during a sync.
    init(store error: StockpotError, soup: String? = nil) {
        self.init(.storeError, "The local store failed: \(error.message)", soup: soup, underlying: error)
    }

    public var description: String { "\(code): \(message)" }
}
