// The behaviour every FileSystem must share, run against the real (in a temporary directory)
// and the in-memory implementation: bytes, sizes, names, errors with their errno, and locks.
#if canImport(Glibc)
    import Glibc
#endif
import StockpotStorage
import Testing

@Suite struct FileSystemConformanceTests {
    @Test(arguments: FileSystemKind.allCases)
    func writtenBytesReadBackAndSetTheSize(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let handle = try fixture.fileSystem.openFile(fixture.path("a"), mode: .createNew)
            defer { handle.close() }
            try handle.write(Array("hello world".utf8), at: 0)
            #expect(try handle.size() == 11)
            #expect(try handle.read(count: 5, at: 6) == Array("world".utf8))
            try handle.write(Array("HELLO".utf8), at: 0)
            #expect(try handle.read(count: 11, at: 0) == Array("HELLO world".utf8))
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func preallocationGrowsWithZerosAndNeverShrinks(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let handle = try writeScratchFile(fixture.fileSystem, fixture.path("a"), "abc")
            defer { handle.close() }
            try handle.preallocate(size: 4096)
            #expect(try handle.size() == 4096)
            #expect(try handle.read(count: 5, at: 0) == Array("abc".utf8) + [0, 0])
            #expect(try handle.read(count: 4093, at: 3).allSatisfy { $0 == 0 })
            try handle.write(Array("de".utf8), at: 3)
            try handle.syncData()
            try handle.preallocate(size: 10)
            #expect(try handle.size() == 4096)
            #expect(try handle.read(count: 6, at: 0) == Array("abcde".utf8) + [0])
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func readsAtTheEndAreShortAndPastItEmpty(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let handle = try writeScratchFile(fixture.fileSystem, fixture.path("a"), "12345")
            defer { handle.close() }
            #expect(try handle.read(count: 10, at: 3) == Array("45".utf8))
            #expect(try handle.read(count: 10, at: 5) == [])
            #expect(try handle.read(count: 10, at: 100) == [])
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func writingPastTheEndZeroFillsTheGap(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let handle = try writeScratchFile(fixture.fileSystem, fixture.path("a"), "ab")
            defer { handle.close() }
            try handle.write([9, 9], at: 5)
            #expect(try handle.size() == 7)
            #expect(try handle.read(count: 7, at: 0) == [97, 98, 0, 0, 0, 9, 9])
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func truncateCutsAndZeroExtends(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let handle = try writeScratchFile(fixture.fileSystem, fixture.path("a"), "abcdef")
            defer { handle.close() }
            try handle.truncate(to: 2)
            #expect(try handle.size() == 2)
            #expect(try handle.read(count: 10, at: 0) == Array("ab".utf8))
            try handle.truncate(to: 4)
            #expect(try handle.read(count: 10, at: 0) == [97, 98, 0, 0])
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func createNewOnAnExistingNameFailsWithEEXIST(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            try writeScratchFile(fixture.fileSystem, fixture.path("a"), "keep").close()
            let error = thrownStorageError { _ = try fixture.fileSystem.openFile(fixture.path("a"), mode: .createNew) }
            #expect(error?.code == .ioError)
            #expect(error?.errno == EEXIST)
            #expect(try readScratchText(fixture.fileSystem, fixture.path("a")) == "keep")
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func createOrTruncateEmptiesAnExistingFile(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            try writeScratchFile(fixture.fileSystem, fixture.path("a"), "old").close()
            let handle = try fixture.fileSystem.openFile(fixture.path("a"), mode: .createOrTruncate)
            defer { handle.close() }
            #expect(try handle.size() == 0)
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func openingAMissingFileIsNotFoundNamingThePath(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            for mode in [FileOpenMode.readOnly, .readWrite] {
                let path = fixture.path("missing")
                let error = thrownStorageError { _ = try fixture.fileSystem.openFile(path, mode: mode) }
                #expect(error?.code == .notFound)
                #expect(error?.errno == ENOENT)
                #expect(error?.file == path)
            }
            let inMissingDirectory = fixture.path("nodir/a")
            let error = thrownStorageError {
                _ = try fixture.fileSystem.openFile(inMissingDirectory, mode: .createNew)
            }
            #expect(error?.code == .notFound)
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func readOnlyHandlesRefuseWritesAndTruncation(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            try writeScratchFile(fixture.fileSystem, fixture.path("a"), "abc").close()
            let handle = try fixture.fileSystem.openFile(fixture.path("a"), mode: .readOnly)
            defer { handle.close() }
            let writeError = thrownStorageError { try handle.write([1], at: 0) }
            #expect(writeError?.code == .ioError)
            #expect(writeError?.errno == EBADF)
            #expect(thrownStorageError { try handle.truncate(to: 0) }?.errno == EBADF)
            #expect(try readScratchText(fixture.fileSystem, fixture.path("a")) == "abc")
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func closedHandlesFailWithEBADF(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let handle = try writeScratchFile(fixture.fileSystem, fixture.path("a"), "abc")
            handle.close()
            handle.close()  // Idempotent.
            #expect(thrownStorageError { _ = try handle.size() }?.errno == EBADF)
            #expect(thrownStorageError { _ = try handle.read(count: 1, at: 0) }?.errno == EBADF)
            #expect(thrownStorageError { try handle.write([1], at: 0) }?.errno == EBADF)
            #expect(thrownStorageError { try handle.sync() }?.errno == EBADF)
            #expect(thrownStorageError { try handle.truncate(to: 0) }?.code == .ioError)
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func twoHandlesOnOneFileSeeEachOthersWrites(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let writer = try writeScratchFile(fixture.fileSystem, fixture.path("a"), "")
            let reader = try fixture.fileSystem.openFile(fixture.path("a"), mode: .readOnly)
            defer { writer.close(); reader.close() }
            try writer.write(Array("xyz".utf8), at: 0)
            #expect(try reader.read(count: 3, at: 0) == Array("xyz".utf8))
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func renameReplacesTheDestination(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let fileSystem = fixture.fileSystem
            try writeScratchFile(fileSystem, fixture.path("new.tmp"), "new").close()
            try writeScratchFile(fileSystem, fixture.path("current"), "old").close()
            try fileSystem.rename(fixture.path("new.tmp"), to: fixture.path("current"))
            #expect(try readScratchText(fileSystem, fixture.path("current")) == "new")
            #expect(!fileSystem.fileExists(fixture.path("new.tmp")))
            #expect(try fileSystem.listDirectory(fixture.root) == ["current"])
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func renameFailuresCarryTheirCodes(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let fileSystem = fixture.fileSystem
            let missing = thrownStorageError { try fileSystem.rename(fixture.path("none"), to: fixture.path("b")) }
            #expect(missing?.code == .notFound)
            try fileSystem.createDirectory(fixture.path("dir"))
            try writeScratchFile(fileSystem, fixture.path("file"), "f").close()
            let overDirectory = thrownStorageError {
                try fileSystem.rename(fixture.path("file"), to: fixture.path("dir"))
            }
            #expect(overDirectory?.code == .ioError)
            #expect(overDirectory?.errno == EISDIR)
            #expect(try readScratchText(fileSystem, fixture.path("file")) == "f")
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func removeDeletesAndAMissingFileIsNotFound(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let fileSystem = fixture.fileSystem
            try writeScratchFile(fileSystem, fixture.path("a"), "x").close()
            try fileSystem.removeFile(fixture.path("a"))
            #expect(!fileSystem.fileExists(fixture.path("a")))
            let error = thrownStorageError { try fileSystem.removeFile(fixture.path("a")) }
            #expect(error?.code == .notFound)
            #expect(error?.errno == ENOENT)
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func aRemovedFileStaysReadableThroughAnOpenHandle(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let handle = try writeScratchFile(fixture.fileSystem, fixture.path("a"), "still here")
            defer { handle.close() }
            try fixture.fileSystem.removeFile(fixture.path("a"))
            #expect(try handle.read(count: 10, at: 0) == Array("still here".utf8))
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func listDirectoryNamesEveryEntry(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let fileSystem = fixture.fileSystem
            #expect(try fileSystem.listDirectory(fixture.root) == [])
            try writeScratchFile(fileSystem, fixture.path("b.seg"), "").close()
            try writeScratchFile(fileSystem, fixture.path("a.seg"), "").close()
            try fileSystem.createDirectory(fixture.path("sub"))
            try writeScratchFile(fileSystem, fixture.path("sub/inner"), "").close()
            #expect(try fileSystem.listDirectory(fixture.root).sorted() == ["a.seg", "b.seg", "sub"])
            #expect(try fileSystem.listDirectory(fixture.path("sub")) == ["inner"])
            #expect(thrownStorageError { _ = try fileSystem.listDirectory(fixture.path("none")) }?.code == .notFound)
            #expect(thrownStorageError { _ = try fileSystem.listDirectory(fixture.path("a.seg")) }?.errno == ENOTDIR)
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func createDirectoryMakesParentsAndAcceptsAnExistingOne(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let fileSystem = fixture.fileSystem
            try fileSystem.createDirectory(fixture.path("x/y/z"))
            try fileSystem.createDirectory(fixture.path("x/y/z"))
            try fileSystem.createDirectory(fixture.path("x/y/z/"))
            #expect(fileSystem.fileExists(fixture.path("x/y/z")))
            try writeScratchFile(fileSystem, fixture.path("x//y/z/f"), "deep").close()
            #expect(try readScratchText(fileSystem, fixture.path("x/y/./z/f")) == "deep")
            let overFile = thrownStorageError { try fileSystem.createDirectory(fixture.path("x/y/z/f")) }
            #expect(overFile?.code == .ioError)
            #expect(overFile?.errno == ENOTDIR)
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func syncDirectoryNeedsAnExistingDirectory(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let fileSystem = fixture.fileSystem
            try fileSystem.syncDirectory(fixture.root)
            #expect(thrownStorageError { try fileSystem.syncDirectory(fixture.path("none")) }?.code == .notFound)
            try writeScratchFile(fileSystem, fixture.path("f"), "").close()
            #expect(thrownStorageError { try fileSystem.syncDirectory(fixture.path("f")) }?.errno == ENOTDIR)
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func fileExistsSeesFilesAndDirectories(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let fileSystem = fixture.fileSystem
            #expect(fileSystem.fileExists(fixture.root))
            #expect(!fileSystem.fileExists(fixture.path("f")))
            try writeScratchFile(fileSystem, fixture.path("f"), "").close()
            #expect(fileSystem.fileExists(fixture.path("f")))
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func aSecondLockOnOnePathIsStoreLockedUntilReleased(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let fileSystem = fixture.fileSystem
            try fileSystem.createDirectory(fixture.path("store"))
            try fileSystem.createDirectory(fixture.path("other"))
            let lock = try fileSystem.lockDirectory(fixture.path("store"))
            #expect(try fileSystem.listDirectory(fixture.path("store")).isEmpty, "locking writes nothing in the directory")
            let error = thrownStorageError { _ = try fileSystem.lockDirectory(fixture.path("store")) }
            #expect(error?.code == .storeLocked)
            #expect(error?.file == fixture.path("store"))
            let other = try fileSystem.lockDirectory(fixture.path("other"))  // Locks are per directory.
            other.release()
            lock.release()
            lock.release()  // Idempotent.
            let again = try fileSystem.lockDirectory(fixture.path("store"))
            again.release()
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func lockingInAMissingDirectoryIsNotFound(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let error = thrownStorageError { _ = try fixture.fileSystem.lockDirectory(fixture.path("none")) }
            #expect(error?.code == .notFound)
        }
    }

    @Test(arguments: FileSystemKind.allCases)
    func negativeOffsetsAreRejected(kind: FileSystemKind) throws {
        try withScratchDirectory(kind) { fixture in
            let handle = try writeScratchFile(fixture.fileSystem, fixture.path("a"), "abc")
            defer { handle.close() }
            #expect(thrownStorageError { _ = try handle.read(count: 1, at: -1) }?.errno == EINVAL)
            #expect(thrownStorageError { try handle.write([1], at: -1) }?.errno == EINVAL)
        }
    }
}
