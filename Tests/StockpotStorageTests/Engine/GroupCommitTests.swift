// Group commit (docs/durability.md, "Commit a batch"): committers whose batches are appended
// while an fsync runs share the next one instead of paying one each. The fsyncs are made slow
// (2 ms) so that the threads surely overlap; what is checked is the count of syncs, not time.
// (Two committers pairing up behind one fsync each round, which needs the second one to append
// within the first one's hold-back window, is shown by storage.group-commit's commits-per-sync
// figure: a test of it would depend on scheduling under load.)

#if canImport(Glibc)
    import Glibc
#endif
import Dispatch
import class Foundation.Thread
import StockpotStorage
import Synchronization
import Testing

@Suite struct GroupCommitTests {
    @Test func committersWaitingTogetherShareOneFsync() throws {
        let engine = try openTestEngine(SlowSyncFileSystem(wrapping: MemoryFileSystem(), syncMicroseconds: 2_000))
        let committers = 4
        let perCommitter = 20
        let failures = Mutex<[String]>([])
        let before = try engine.statistics().commitSyncs
        // Threads of their own: Dispatch would run only as many committers at once as cores.
        let done = DispatchGroup()
        for committer in 0..<committers {
            done.enter()
            Thread {
                for number in 0..<perCommitter {
                    var batch = WriteBatch()
                    batch.put(testKey(committer * 1000 + number), [UInt8(truncatingIfNeeded: number)])
                    do { try engine.write(batch) } catch { failures.withLock { $0.append("\(error)") } }
                }
                done.leave()
            }.start()
        }
        done.wait()
        let syncs = try engine.statistics().commitSyncs - before
        #expect(failures.withLock { $0 }.isEmpty)
        // One fsync per commit (80) would be no sharing. Measured: 28-29 syncs, as committers
        // hold back for as many batches as the last fsync covered; 37-38 when they held back
        // for one other batch only.
        #expect(syncs <= committers * perCommitter / 2, "\(syncs) fsyncs for \(committers * perCommitter) commits")
        #expect(engine.view().count == committers * perCommitter)
        try engine.close()
    }
}

/// A file system whose file syncs each sleep first, as a slow disk's would.
final class SlowSyncFileSystem: FileSystem {
    let base: any FileSystem
    let syncMicroseconds: UInt32

    init(wrapping base: any FileSystem, syncMicroseconds: UInt32) {
        self.base = base
        self.syncMicroseconds = syncMicroseconds
    }

    func openFile(_ path: String, mode: FileOpenMode) throws(StorageError) -> any FileHandle {
        SlowSyncFileHandle(base: try base.openFile(path, mode: mode), syncMicroseconds: syncMicroseconds)
    }
    func rename(_ source: String, to destination: String) throws(StorageError) { try base.rename(source, to: destination) }
    func removeFile(_ path: String) throws(StorageError) { try base.removeFile(path) }
    func listDirectory(_ path: String) throws(StorageError) -> [String] { try base.listDirectory(path) }
    func createDirectory(_ path: String) throws(StorageError) { try base.createDirectory(path) }
    func syncDirectory(_ path: String) throws(StorageError) { try base.syncDirectory(path) }
    func fileExists(_ path: String) -> Bool { base.fileExists(path) }
    func lockDirectory(_ path: String) throws(StorageError) -> any FileLock { try base.lockDirectory(path) }
    func removeDirectory(_ path: String) throws(StorageError) { try base.removeDirectory(path) }
}

final class SlowSyncFileHandle: FileHandle {
    let base: any FileHandle
    let syncMicroseconds: UInt32

    init(base: any FileHandle, syncMicroseconds: UInt32) {
        self.base = base
        self.syncMicroseconds = syncMicroseconds
    }

    var path: String { base.path }
    func size() throws(StorageError) -> Int { try base.size() }
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(StorageError) -> Int {
        try base.read(into: buffer, at: offset)
    }
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(StorageError) { try base.write(bytes, at: offset) }
    func sync() throws(StorageError) {
        usleep(syncMicroseconds)
        try base.sync()
    }
    func syncData() throws(StorageError) {
        usleep(syncMicroseconds)
        try base.syncData()
    }
    func startWriteback(offset: Int, count: Int) { base.startWriteback(offset: offset, count: count) }
    func preallocate(size: Int) throws(StorageError) { try base.preallocate(size: size) }
    func truncate(to size: Int) throws(StorageError) { try base.truncate(to: size) }
    func close() { base.close() }
}
