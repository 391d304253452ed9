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

/// The `StoreCrashWriter` child the crash tests start and kill: its path beside the test
/// binary, and reading what it printed up to its "ready" line.
enum CrashWriterChild {
    static var url: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("StoreCrashWriter")
    }

    /// What the writer printed up to and including its "ready" line (all it printed, if it
    /// ended before that).
    static func readUntilReady(_ handle: FileHandle) -> String {
        var printed = ""
        while !printed.contains("ready\n") {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            printed += String(decoding: chunk, as: UTF8.self)
        }
        return printed
    }
}
