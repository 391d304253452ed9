// Scratch directories for tests that use the real file system: a unique path under the
// system's temporary directory, removed (with everything in it) when the owner goes away.

import Foundation

/// A unique directory under the temporary directory, created at once and removed at deinit.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let path: String

    /// Creates a fresh directory whose name starts with `prefix`.
    public init(prefix: String = "stockpot") throws {
        path = Self.uniquePath(prefix: prefix)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A path inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// A path under the temporary directory that nothing uses yet (not created).
    public static func uniquePath(prefix: String) -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(getpid())-\(UUID().uuidString)").path
    }
}

/// Runs `body` with a fresh temporary directory's path, removed when `body` returns.
public func withTemporaryDirectory<R>(prefix: String = "stockpot", _ body: (String) throws -> R) throws -> R {
    let directory = try TemporaryDirectory(prefix: prefix)
    return try withExtendedLifetime(directory) { try body(directory.path) }
}
