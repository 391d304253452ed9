// Helpers for the file-system tests: a scratch directory on the real or the in-memory file
// system (the real one removed afterwards), and small read/write shorthands. Foundation is
// imported for FileManager only; its FileHandle clashes with ours, so spell ours qualified.
import Foundation
import StockpotStorage
import Testing
import StockpotTestSupport

/// Which implementation a conformance test runs against.
enum FileSystemKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case real, memory
    var description: String { rawValue }
}

/// A scratch directory `root` on a file system; `path(_:)` names a file in it.
struct FileSystemFixture {
    let fileSystem: any FileSystem
    let root: String

    func path(_ name: String) -> String { root + "/" + name }
}

/// Runs `body` with a fresh scratch directory; a real one is a new directory under the
/// temporary directory, removed afterwards whatever happens.
func withScratchDirectory(_ kind: FileSystemKind, _ body: (FileSystemFixture) throws -> Void) throws {
    switch kind {
    case .memory:
        let fileSystem = MemoryFileSystem()
        try fileSystem.createDirectory("/scratch")
        try body(FileSystemFixture(fileSystem: fileSystem, root: "/scratch"))
    case .real:
        let root = try TemporaryDirectory(prefix: "stockpot-fs")
        try withExtendedLifetime(root) { try body(FileSystemFixture(fileSystem: RealFileSystem(), root: root.path)) }
    }
}

/// Creates (or truncates) `path` with `text` as its bytes and returns the open handle.
@discardableResult
func writeScratchFile(_ fileSystem: any FileSystem, _ path: String, _ text: String, sync: Bool = false)
    throws -> any StockpotStorage.FileHandle
{
    let handle = try fileSystem.openFile(path, mode: .createOrTruncate)
    try handle.write(Array(text.utf8), at: 0)
    if sync { try handle.sync() }
    return handle
}

/// The whole content of `path`, read through a fresh read-only handle, as text.
func readScratchText(_ fileSystem: any FileSystem, _ path: String) throws -> String {
    let handle = try fileSystem.openFile(path, mode: .readOnly)
    defer { handle.close() }
    return String(decoding: try handle.read(count: try handle.size(), at: 0), as: UTF8.self)
}

/// The StorageError `body` throws, or `nil` when it returns normally (any other error is
/// recorded as a test issue).
func thrownStorageError(_ body: () throws -> Void) -> StorageError? {
    do {
        try body()
        return nil
    } catch let error as StorageError {
        return error
    } catch {
        Issue.record("Expected a StorageError, got \(error)")
        return nil
    }
}
