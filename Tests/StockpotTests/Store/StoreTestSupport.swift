// Helpers for store tests: a fresh temporary directory per store, and error-code capture.

import Foundation
import Stockpot
import StockpotTestSupport


/// The code `body` fails with, or nil when it succeeds.
func errorCode(_ body: () throws -> Void) -> StockpotError.Code? {
    do {
        try body()
        return nil
    } catch let error as StockpotError {
        return error.code
    } catch {
        return .internal
    }
}

/// Options for tests: no fsync (the crash and power-loss tests are elsewhere).
func fastOptions() -> StoreOptions {
    var options = StoreOptions()
    options.durability = .none
    return options
}
