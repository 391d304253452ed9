// Errors match by code in catch clauses, describe themselves through LocalizedError, and a
// store opens from a file URL.

import Foundation
import Stockpot
import StockpotTestSupport
import Testing

@Suite struct StoreErrorMatchingTests {
    @Test func aCatchClauseMatchesTheCode() throws {
        try withTemporaryDirectory { directory in
            let store = try Store.open(url: URL(fileURLWithPath: directory), options: fastOptions())
            defer { try? store.close() }
            var matched = "none"
            do {
                _ = try store.retrieve([1], from: "missing")
            } catch StockpotError.Code.invalidQuery {
                matched = "invalid_query"
            } catch StockpotError.Code.soupNotFound {
                matched = "soup_not_found"
            }
            #expect(matched == "soup_not_found")
            let error: any Error = StockpotError(.wrongKey, "The key does not open this store.")
            #expect(error.localizedDescription == "wrong_key: The key does not open this store.")
        }
    }

    @Test func aURLThatIsNotAFileIsRefused() {
        #expect(errorCode { _ = try Store.open(url: URL(string: "https://example.com/store")!) } == .invalidArgument)
    }
}
