// A file system wrapper that counts I/O calls and fails the Nth one (ENOSPC, EIO or a short
// write), once or from then on, so tests can inject a fault at every call of a workload.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// Wraps a file system, counting its I/O calls and failing a chosen one.
///
/// Counted calls are every ``FileSystem`` method except `fileExists` (which cannot fail) and
/// every ``FileHandle`` method except `path` and `close`; lock release is not counted. A
/// failing call does not reach the wrapped file system, except a short write, which writes the
/// first half of its bytes (rounded down) before failing with ENOSPC.
///
/// Typical use: run a workload once without a fault to learn ``callCount``, then for each N in
/// `1...callCount` run it on a fresh wrapper with `failCall(N, with: ...)`.
///
/// Thread-safe: the counter and the fault sit behind one mutex; concurrent calls are numbered
/// in the order they take it.
package final class FaultInjectingFileSystem: FileSystem {
    /// A kind of I/O call, for filtering which calls are counted.
    package enum Operation: Sendable, Hashable, CaseIterable {
        /// ``FileSystem`` methods.
        case openFile, rename, removeFile, listDirectory, createDirectory, syncDirectory, lockDirectory
        /// ``FileHandle`` methods.
        case size, read, write, sync, truncate, preallocate
    }

    /// How the chosen call fails.
    package enum FaultKind: Sendable, Hashable {
        /// `ioError` with ENOSPC.
        case noSpace
        /// `ioError` with EIO.
        case ioError
        /// A write puts the first half of its bytes through, then fails with ENOSPC; any other
        /// call fails as ``ioError``.
        case shortWrite
    }

    /// Whether only the chosen call fails or every counted call from it on.
    package enum FaultMode: Sendable, Hashable {
        /// Only the chosen call fails.
        case once
        /// The chosen call and every counted call after it fail.
        case persistent
    }

    private struct State {
        var callCount = 0
        var fault: (call: Int, kind: FaultKind, mode: FaultMode)?
        var faultsInjected = 0
    }

    /// The wrapped file system.
    package let base: any FileSystem
    /// The operations that are counted (and so can fail).
    package let countedOperations: Set<Operation>
    private let state = Mutex(State())

    /// Wraps `base`, counting the calls in `only`.
    package init(wrapping base: any FileSystem, only: Set<Operation> = Set(Operation.allCases)) {
        self.base = base
        self.countedOperations = only
    }

    /// The number of counted calls since creation or ``resetCallCount()``.
    package var callCount: Int { state.withLock { $0.callCount } }

    /// How many calls have failed by injection.
    package var faultsInjected: Int { state.withLock { $0.faultsInjected } }

    /// Makes counted call number `call` (1-based, counted like ``callCount``) fail with `kind`;
    /// with `.persistent` every counted call after it fails too. Replaces any earlier fault.
    package func failCall(_ call: Int, with kind: FaultKind, mode: FaultMode = .once) {
        state.withLock { $0.fault = (call, kind, mode) }
    }

    /// Removes the fault; later calls pass through.
    package func clearFault() {
        state.withLock { $0.fault = nil }
    }

    /// Restarts counting from zero (a set fault keeps its call number).
    package func resetCallCount() {
        state.withLock { $0.callCount = 0 }
    }

    /// Counts a call of `operation`; the fault it must fail with, if any.
    func count(_ operation: Operation) -> FaultKind? {
        guard countedOperations.contains(operation) else { return nil }
        return state.withLock { state in
            state.callCount += 1
            guard let fault = state.fault else { return nil }
            let hit = fault.mode == .once ? state.callCount == fault.call : state.callCount >= fault.call
            guard hit else { return nil }
            state.faultsInjected += 1
            return fault.kind
        }
    }

    /// Counts a call and throws its injected fault, if any (a short write is the caller's job).
    func check(_ operation: Operation, _ verb: String, path: String) throws(StorageError) {
        guard let kind = count(operation) else { return }
        throw Self.error(kind, verb, path: path)
    }

    static func error(_ kind: FaultKind, _ verb: String, path: String) -> StorageError {
        let code = kind == .noSpace ? ENOSPC : EIO
        var error = StorageError.systemCall(verb, path: path, errno: code)
        error.message = "Injected fault: " + error.message
        return error
    }

    // MARK: FileSystem

    /// Counts the call, then opens through the wrapped file system; the handle counts too.
    package func openFile(_ path: String, mode: FileOpenMode) throws(StorageError) -> any FileHandle {
        try check(.openFile, "open", path: path)
        return FaultInjectingFileHandle(base: try base.openFile(path, mode: mode), injector: self)
    }

    /// Counts the call, then renames through the wrapped file system.
    package func rename(_ source: String, to destination: String) throws(StorageError) {
        try check(.rename, "rename \(source) to", path: destination)
        try base.rename(source, to: destination)
    }

    /// Counts the call as a rename, then exchanges through the wrapped file system.
    package func exchange(_ first: String, _ second: String) throws(StorageError) {
        try check(.rename, "exchange \(first) with", path: second)
        try base.exchange(first, second)
    }

    /// Counts the call, then removes through the wrapped file system.
    package func removeFile(_ path: String) throws(StorageError) {
        try check(.removeFile, "remove", path: path)
        try base.removeFile(path)
    }

    /// Counts the call as a removal, then removes through the wrapped file system.
    package func removeDirectory(_ path: String) throws(StorageError) {
        try check(.removeFile, "remove the directory", path: path)
        try base.removeDirectory(path)
    }

    /// Counts the call, then lists through the wrapped file system.
    package func listDirectory(_ path: String) throws(StorageError) -> [String] {
        try check(.listDirectory, "list", path: path)
        return try base.listDirectory(path)
    }

    /// Counts the call, then creates through the wrapped file system.
    package func createDirectory(_ path: String) throws(StorageError) {
        try check(.createDirectory, "create the directory", path: path)
        try base.createDirectory(path)
    }

    /// Counts the call, then syncs through the wrapped file system.
    package func syncDirectory(_ path: String) throws(StorageError) {
        try check(.syncDirectory, "fsync the directory", path: path)
        try base.syncDirectory(path)
    }

    /// Asks the wrapped file system; not counted, as it cannot fail.
    package func fileExists(_ path: String) -> Bool {
        base.fileExists(path)
    }

    /// Counts the call, then locks through the wrapped file system.
    package func lockDirectory(_ path: String) throws(StorageError) -> any FileLock {
        try check(.lockDirectory, "lock", path: path)
        return try base.lockDirectory(path)
    }
}

/// A handle of a ``FaultInjectingFileSystem``: counts each call and fails the chosen one.
///
/// Thread-safe as the wrapped handle is.
final class FaultInjectingFileHandle: FileHandle {
    private let base: any FileHandle
    private let injector: FaultInjectingFileSystem

    init(base: any FileHandle, injector: FaultInjectingFileSystem) {
        self.base = base
        self.injector = injector
    }

    var path: String { base.path }

    func size() throws(StorageError) -> Int {
        try injector.check(.size, "stat", path: path)
        return try base.size()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(StorageError) -> Int {
        try injector.check(.read, "read at byte \(offset) of", path: path)
        return try base.read(into: buffer, at: offset)
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(StorageError) {
        guard let kind = injector.count(.write) else { return try base.write(bytes, at: offset) }
        if kind == .shortWrite {
            let half = bytes.count / 2
            try base.write(UnsafeRawBufferPointer(rebasing: bytes[0..<half]), at: offset)
            throw FaultInjectingFileSystem.error(.noSpace, "write at byte \(offset + half) of", path: path)
        }
        throw FaultInjectingFileSystem.error(kind, "write at byte \(offset) of", path: path)
    }

    func sync() throws(StorageError) {
        try injector.check(.sync, "fsync", path: path)
        try base.sync()
    }

    /// Counted as a `.sync`: power-loss tests cut power at every sync of either kind.
    func syncData() throws(StorageError) {
        try injector.check(.sync, "fdatasync", path: path)
        try base.syncData()
    }

    /// Passed on: a hint, with no error to inject.
    func startWriteback(offset: Int, count: Int) {
        base.startWriteback(offset: offset, count: count)
    }

    func preallocate(size: Int) throws(StorageError) {
        try injector.check(.preallocate, "preallocate \(size) bytes of", path: path)
        try base.preallocate(size: size)
    }

    func truncate(to size: Int) throws(StorageError) {
        try injector.check(.truncate, "truncate to \(size) bytes", path: path)
        try base.truncate(to: size)
    }

    func close() {
        base.close()
    }
}
