// The demo's store directory: replaced when it holds a store (it has a MANIFEST) or is empty,
// refused otherwise, so a mistyped DIR never deletes someone's files.

import Foundation

/// Preparing and measuring the demo store's directory.
enum DemoStoreDirectory {
    /// Why the directory cannot be used.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// Removes `path` when it is a store or an empty directory, so the demo starts afresh.
    ///
    /// - Throws: ``Refusal`` when `path` is a file, or a directory with files but no MANIFEST.
    static func prepare(_ path: String) throws {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else {
            throw Refusal(description: "\(path) is a file, not a store directory; choose another directory")
        }
        let names = try files.contentsOfDirectory(atPath: path)
        guard names.isEmpty || names.contains("MANIFEST") else {
            throw Refusal(description: "\(path) is not empty and holds no Stockpot store (no MANIFEST); not replacing it")
        }
        try files.removeItem(atPath: path)
    }

    /// Total bytes of the files directly in `path`.
    static func fileBytes(_ path: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: path + "/" + $1))?[.size] as? Int ?? 0) }
    }
}
