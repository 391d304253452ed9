// The server's errors as sync codes: SQLSTATE classes mapped once (docs/sync.md, "Errors").

extension SyncError {
    /// The sync error for a server error with this SQLSTATE.
    static func fromServer(sqlState: String, message: String, soup: String?) -> SyncError {
        let code: Code
        switch sqlState {
        case "42501": code = .permissionDenied  // insufficient_privilege
        case "42P01", "3F000": code = .serverNotInitialized  // undefined_table, invalid_schema_name
        case "42703", "42804", "42883": code = .schemaMismatch  // undefined_column, datatype_mismatch, undefined_function
        case "22P02", "22P05", "22021", "54000": code = .documentRejected  // bad jsonb text, \u0000, encoding, too large
        case "57014": code = .cancelled  // query_canceled
        default: code = .serverError
        }
        let what: String
        switch code {
        case .permissionDenied: what = "The server's role may not do this"
        case .serverNotInitialized: what = "The server has no sync tables here (run `stockpot sync init-server`)"
        case .schemaMismatch: what = "The server's sync tables are not what this version of Stockpot expects"
        case .documentRejected: what = "The server refused a document"
        default: what = "The server failed"
        }
        return SyncError(code, "\(what): \(message) (SQLSTATE \(sqlState))", soup: soup, sqlState: sqlState)
    }
}
