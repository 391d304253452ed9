// Matching errors by code in `catch` clauses and `switch` cases, and Foundation's
// LocalizedError, so that `error.localizedDescription` reads as the message.

import Foundation

extension StockpotError.Code {
    /// Whether `error` is a ``StockpotError`` with this code, so that a `catch` can name the
    /// code alone: `catch StockpotError.Code.wrongKey { ... }`.
    public static func ~= (code: StockpotError.Code, error: any Error) -> Bool {
        (error as? StockpotError)?.code == code
    }
}

extension StockpotError: LocalizedError {
    /// The message and its code, as ``description`` gives them.
    public var errorDescription: String? { description }
}

extension Store {
    /// Opens the store at the file URL `url`, creating it when it does not exist. See
    /// ``open(directory:options:)-9ekas``.
    ///
    /// - Throws: `invalid_argument` for a URL that is not a file URL; as ``open(directory:options:)-9ekas``.
    public static func open(url: URL, options: StoreOptions = StoreOptions()) throws(StockpotError) -> Store {
        guard url.isFileURL else {
            throw StockpotError(.invalidArgument, "A store lives in a directory; \(url) is not a file URL.")
        }
        return try open(directory: url.path, options: options)
    }
}
