// The demo's store directory: replaced only when it is empty or holds a demo store (a store
// whose one soup is the demo's, with the demo's index specs), refused otherwise unless forced,
// so that a mistyped DIR never deletes someone's store or files.

import Foundation
import Stockpot
import StockpotStorage

/// Preparing and measuring the demo store's directory.
enum DemoStoreDirectory {
    /// Why the directory cannot be used.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// Removes `path` when it is an empty directory or a demo store (or anything, with
    /// `force`), so the demo starts afresh.
    ///
    /// - Throws: ``Refusal`` when `path` is a file, a store that is not a demo store (or that
    ///   cannot be opened to tell), or a directory with other files; never with `force`.
    static func prepare(_ path: String, force: Bool = false) throws {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        if !force {
            guard isDirectory.boolValue else {
                throw Refusal(description: "\(path) is a file, not a store directory; choose another directory (or give --force to replace it)")
            }
            let names = try files.contentsOfDirectory(atPath: path)
            guard names.isEmpty || names.contains(FileNames.manifest) else {
                throw Refusal(description: "\(path) is not empty and holds no Stockpot store (no MANIFEST); not replacing it (give --force to)")
            }
            if !names.isEmpty, let other = otherThanDemo(path) {
                throw Refusal(description: "\(path) holds a store that is not a demo store (\(other)); not replacing it (give --force to)")
            }
        }
        try files.removeItem(atPath: path)
    }

    /// Why the store at `path` is not a demo store, or nil when it is one: its only soup is
    /// the demo's, with the demo's index specs.
    private static func otherThanDemo(_ path: String) -> String? {
        let store: Store
        do {
            store = try Store.open(directory: path)
        } catch {
            return "it cannot be opened: \(error.message)"
        }
        defer { try? store.close() }
        let names = store.allSoupNames()
        guard names == [DemoCommand.soup] else {
            return "its soups are " + names.map { "\"\($0)\"" }.joined(separator: ", ")
        }
        guard (try? store.indexSpecs(of: DemoCommand.soup)) == DemoCommand.specs else {
            return "its soup \"\(DemoCommand.soup)\" has other index specs"
        }
        return nil
    }

    /// Total bytes of the files directly in `path`.
    static func fileBytes(_ path: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: path + "/" + $1))?[.size] as? Int ?? 0) }
    }
}
