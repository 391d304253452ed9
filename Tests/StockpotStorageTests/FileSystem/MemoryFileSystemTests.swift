// Pins the in-memory file system's power-loss model: only fsynced bytes and dir-fsynced names
// survive; plus its test controls, path spellings and thread safety.
#if canImport(Glibc)
    import Glibc
#endif
import Dispatch
import StockpotStorage
import Testing

@Suite struct MemoryFileSystemTests {
    /// A file system with a durable directory "/db".
    func freshStore() throws -> MemoryFileSystem {
        let fileSystem = MemoryFileSystem()
        try fileSystem.createDirectory("/db")
        try fileSystem.syncDirectory("/")
        return fileSystem
    }

    func text(_ fileSystem: MemoryFileSystem, _ path: String) -> String? {
        fileSystem.fileContents(path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func unsyncedWritesAreLostOnPowerLoss() throws {
        let fileSystem = try freshStore()
        let handle = try writeScratchFile(fileSystem, "/db/a", "durable", sync: true)
        try fileSystem.syncDirectory("/db")
        try handle.write(Array(" and not".utf8), at: 7)
        #expect(text(fileSystem, "/db/a") == "durable and not")
        fileSystem.simulatePowerLoss()
        #expect(text(fileSystem, "/db/a") == "durable")
    }

    @Test func aNeverSyncedFileSurvivesEmptyWhenItsNameIsDurable() throws {
        let fileSystem = try freshStore()
        try writeScratchFile(fileSystem, "/db/a", "lost").close()
        try fileSystem.syncDirectory("/db")
        fileSystem.simulatePowerLoss()
        #expect(fileSystem.fileContents("/db/a") == [])
    }

    @Test func syncedContentOfANameNeverDirSyncedIsLost() throws {
        let fileSystem = try freshStore()
        try writeScratchFile(fileSystem, "/db/a", "synced", sync: true).close()
        fileSystem.simulatePowerLoss()
        #expect(!fileSystem.fileExists("/db/a"))
        #expect(try fileSystem.listDirectory("/db") == [])
    }

    @Test func overwritesAndTruncationsAfterASyncAreUndone() throws {
        let fileSystem = try freshStore()
        let handle = try writeScratchFile(fileSystem, "/db/a", "abcdef", sync: true)
        try fileSystem.syncDirectory("/db")
        try handle.write(Array("XY".utf8), at: 1)
        try handle.truncate(to: 4)
        try handle.write(Array("tail".utf8), at: 10)
        fileSystem.simulatePowerLoss()
        #expect(text(fileSystem, "/db/a") == "abcdef")
    }

    @Test func writesIntoSyncedPreallocatedSpaceAreLostAsZeros() throws {
        let fileSystem = try freshStore()
        let handle = try writeScratchFile(fileSystem, "/db/a", "head", sync: true)
        try fileSystem.syncDirectory("/db")
        try handle.preallocate(size: 12)
        try handle.syncData()
        try handle.write(Array("body".utf8), at: 4)
        try handle.syncData()
        try handle.write(Array("lost".utf8), at: 8)
        fileSystem.simulatePowerLoss()
        #expect(fileSystem.fileContents("/db/a") == Array("headbody".utf8) + [0, 0, 0, 0])
    }

    @Test func unsyncedPreallocationIsLostAndAWriteBelowTheZerosIsUndone() throws {
        let fileSystem = try freshStore()
        let handle = try writeScratchFile(fileSystem, "/db/a", "head", sync: true)
        try fileSystem.syncDirectory("/db")
        try handle.preallocate(size: 8)
        try handle.write(Array("HE".utf8), at: 0)
        fileSystem.simulatePowerLoss()
        #expect(text(fileSystem, "/db/a") == "head")
    }

    @Test func createOrTruncateOfASyncedFileIsUndone() throws {
        let fileSystem = try freshStore()
        try writeScratchFile(fileSystem, "/db/a", "old", sync: true).close()
        try fileSystem.syncDirectory("/db")
        try writeScratchFile(fileSystem, "/db/a", "new").close()
        fileSystem.simulatePowerLoss()
        #expect(text(fileSystem, "/db/a") == "old")
    }

    @Test func renameWithoutDirSyncIsUndone() throws {
        let fileSystem = try freshStore()
        try writeScratchFile(fileSystem, "/db/MANIFEST", "generation 1", sync: true).close()
        try fileSystem.syncDirectory("/db")
        try writeScratchFile(fileSystem, "/db/MANIFEST.tmp", "generation 2", sync: true).close()
        try fileSystem.rename("/db/MANIFEST.tmp", to: "/db/MANIFEST")
        #expect(text(fileSystem, "/db/MANIFEST") == "generation 2")
        fileSystem.simulatePowerLoss()
        #expect(text(fileSystem, "/db/MANIFEST") == "generation 1")
        #expect(!fileSystem.fileExists("/db/MANIFEST.tmp"))
    }

    @Test func aRenamedDurableFileReturnsToItsOldName() throws {
        let fileSystem = try freshStore()
        try writeScratchFile(fileSystem, "/db/a", "content", sync: true).close()
        try fileSystem.syncDirectory("/db")
        try fileSystem.rename("/db/a", to: "/db/b")
        fileSystem.simulatePowerLoss()
        #expect(text(fileSystem, "/db/a") == "content")
        #expect(!fileSystem.fileExists("/db/b"))
    }

    @Test func aDirSyncedRenameOfSyncedContentSurvives() throws {
        let fileSystem = try freshStore()
        try writeScratchFile(fileSystem, "/db/MANIFEST", "generation 1", sync: true).close()
        try fileSystem.syncDirectory("/db")
        try writeScratchFile(fileSystem, "/db/MANIFEST.tmp", "generation 2", sync: true).close()
        try fileSystem.rename("/db/MANIFEST.tmp", to: "/db/MANIFEST")
        try fileSystem.syncDirectory("/db")
        fileSystem.simulatePowerLoss()
        #expect(text(fileSystem, "/db/MANIFEST") == "generation 2")
        #expect(try fileSystem.listDirectory("/db") == ["MANIFEST"])
    }

    @Test func aSyncThroughAHandleCoversTheFileUnderItsNewName() throws {
        let fileSystem = try freshStore()
        let handle = try writeScratchFile(fileSystem, "/db/a.tmp", "moved")
        try fileSystem.rename("/db/a.tmp", to: "/db/a")
        try fileSystem.syncDirectory("/db")
        try handle.sync()
        fileSystem.simulatePowerLoss()
        #expect(text(fileSystem, "/db/a") == "moved")
    }

    @Test func removeWithoutDirSyncIsUndone() throws {
        let fileSystem = try freshStore()
        try writeScratchFile(fileSystem, "/db/old.seg", "records", sync: true).close()
        try fileSystem.syncDirectory("/db")
        try fileSystem.removeFile("/db/old.seg")
        fileSystem.simulatePowerLoss()
        #expect(text(fileSystem, "/db/old.seg") == "records")
        try fileSystem.removeFile("/db/old.seg")
        try fileSystem.syncDirectory("/db")
        fileSystem.simulatePowerLoss()
        #expect(!fileSystem.fileExists("/db/old.seg"))
    }

    @Test func aDirectoryNeverDirSyncedVanishesWithItsFiles() throws {
        let fileSystem = MemoryFileSystem()
        try fileSystem.createDirectory("/db/sub")
        try fileSystem.syncDirectory("/db")  // "/db/sub" is durable in "/db", "/db" is not in "/".
        try writeScratchFile(fileSystem, "/db/sub/a", "x", sync: true).close()
        try fileSystem.syncDirectory("/db/sub")
        fileSystem.simulatePowerLoss()
        #expect(!fileSystem.fileExists("/db"))
        #expect(try fileSystem.listDirectory("/") == [])
    }

    @Test func handlesFailWithEBADFAfterPowerLoss() throws {
        let fileSystem = try freshStore()
        let handle = try writeScratchFile(fileSystem, "/db/a", "x", sync: true)
        try fileSystem.syncDirectory("/db")
        fileSystem.simulatePowerLoss()
        let error = thrownStorageError { _ = try handle.read(count: 1, at: 0) }
        #expect(error?.code == .ioError)
        #expect(error?.errno == EBADF)
        #expect(thrownStorageError { try handle.write([1], at: 0) }?.errno == EBADF)
        #expect(thrownStorageError { try handle.sync() }?.errno == EBADF)
        let reopened = try fileSystem.openFile("/db/a", mode: .readOnly)
        #expect(try reopened.read(count: 1, at: 0) == Array("x".utf8))
    }

    @Test func powerLossReleasesLocks() throws {
        let fileSystem = try freshStore()
        let lock = try fileSystem.lockDirectory("/db")
        fileSystem.simulatePowerLoss()
        let again = try fileSystem.lockDirectory("/db")
        lock.release()  // A stale lock's release must not free the new holder's lock.
        #expect(thrownStorageError { _ = try fileSystem.lockDirectory("/db") }?.code == .storeLocked)
        again.release()
    }

    @Test func durableCopyHoldsWhatWouldSurviveAndLeavesTheOriginal() throws {
        let fileSystem = try freshStore()
        let handle = try writeScratchFile(fileSystem, "/db/a", "synced", sync: true)
        try fileSystem.syncDirectory("/db")
        try handle.write(Array("+more".utf8), at: 6)
        try writeScratchFile(fileSystem, "/db/b", "new", sync: true).close()
        let copy = fileSystem.durableCopy()
        #expect(text(copy, "/db/a") == "synced")
        #expect(!copy.fileExists("/db/b"))
        #expect(text(fileSystem, "/db/a") == "synced+more")
        try handle.write(Array("!".utf8), at: 11)  // The original's handles stay valid.
        #expect(text(fileSystem, "/db/a") == "synced+more!")
    }

    @Test func setFileContentsIsDurableAtOnce() throws {
        let fileSystem = try freshStore()
        try fileSystem.setFileContents("/db/fresh", [1, 2, 3])
        try writeScratchFile(fileSystem, "/db/a", "abcdef", sync: true).close()
        try fileSystem.syncDirectory("/db")
        var bytes = try #require(fileSystem.fileContents("/db/a"))
        bytes[2] ^= 0xFF
        try fileSystem.setFileContents("/db/a", Array(bytes.prefix(4)))
        fileSystem.simulatePowerLoss()
        #expect(fileSystem.fileContents("/db/fresh") == [1, 2, 3])
        #expect(fileSystem.fileContents("/db/a") == [97, 98, 99 ^ 0xFF, 100])
        #expect(fileSystem.fileContents("/db") == nil)
        #expect(fileSystem.fileContents("/db/none") == nil)
        #expect(thrownStorageError { try fileSystem.setFileContents("/none/a", []) }?.code == .notFound)
    }

    @Test(arguments: ["db/a", "/db//a", "./db/a", "/db/a/", "/db/x/../a", "//db/./a"])
    func pathSpellingsNameOneFile(spelling: String) throws {
        let fileSystem = try freshStore()
        try writeScratchFile(fileSystem, "/db/a", "same").close()
        #expect(fileSystem.fileExists(spelling))
        #expect(try readScratchText(fileSystem, spelling) == "same")
        let lock = try fileSystem.lockDirectory("/db")
        let directorySpelling = spelling.hasSuffix("/") ? spelling + ".." : spelling + "/.."
        #expect(thrownStorageError { _ = try fileSystem.lockDirectory(directorySpelling) }?.code == .storeLocked)
        lock.release()
    }

    @Test func concurrentWritesToDisjointRangesAllLand() throws {
        let fileSystem = try freshStore()
        let handle = try fileSystem.openFile("/db/a", mode: .createNew)
        let writers = 8
        let chunk = 1000
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            let bytes = [UInt8](repeating: UInt8(writer + 1), count: chunk)
            for piece in 0..<10 {
                try? handle.write(
                    Array(bytes[(piece * 100)..<(piece * 100 + 100)]),
                    at: writer * chunk + piece * 100)
            }
        }
        let expected = (0..<writers).flatMap { [UInt8](repeating: UInt8($0 + 1), count: chunk) }
        #expect(fileSystem.fileContents("/db/a") == expected)
    }
}
