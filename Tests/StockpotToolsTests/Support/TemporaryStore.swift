// A fresh store directory per test, removed when the test is done.

import Foundation
import StockpotTestSupport

/// A unique directory path for one test's store; the directory itself is created by
/// `stockpot exec`, and removed when this object and every process started on it are gone.
final class TemporaryStore {
    /// The store directory.
    let path: String

    init() {
        path = TemporaryDirectory.uniquePath(prefix: "stockpot-tools")
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Starts `stockpot exec` on this store.
    func exec(_ options: [String] = []) throws -> ExecProcess {
        try ExecProcess(directory: path, options: options, owner: self)
    }
}
