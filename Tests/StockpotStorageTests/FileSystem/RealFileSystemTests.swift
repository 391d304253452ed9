// Pins what only the POSIX file system can show: flock conflicts between two opens in one
// process, O_CLOEXEC descriptors, bytes reaching the disk, and errors naming path and errno.
#if canImport(Glibc)
import Glibc
#endif
import StockpotStorage
import Testing

@Suite struct RealFileSystemTests {
    @Test func twoLocksInOneProcessConflictAsFlockDoes() throws {
        try withScratchDirectory(.real) { fixture in
            // Two RealFileSystem values share nothing: the conflict comes from flock itself.
            let first = try RealFileSystem().lockFile(fixture.path("LOCK"))
            let error = thrownStorageError { _ = try RealFileSystem().lockFile(fixture.path("LOCK")) }
            #expect(error?.code == .storeLocked)
            #expect(error?.errno == EWOULDBLOCK)
            first.release()
            let second = try RealFileSystem().lockFile(fixture.path("LOCK"))
            second.release()
        }
    }

    @Test func aLockIsReleasedWhenItsLastReferenceGoes() throws {
        try withScratchDirectory(.real) { fixture in
            func lockAndDrop() throws { _ = try RealFileSystem().lockFile(fixture.path("LOCK")) }
            try lockAndDrop()
            try RealFileSystem().lockFile(fixture.path("LOCK")).release()
        }
    }

    @Test(arguments: [FileOpenMode.readOnly, .readWrite, .createNew, .createOrTruncate])
    func descriptorsAreCloseOnExec(mode: FileOpenMode) throws {
        try withScratchDirectory(.real) { fixture in
            if mode == .readOnly || mode == .readWrite {
                try writeScratchFile(fixture.fileSystem, fixture.path("a"), "x").close()
            }
            let handle = try #require(
                try fixture.fileSystem.openFile(fixture.path("a"), mode: mode) as? RealFileHandle)
            let flags = fcntl(handle.fileDescriptor, F_GETFD)
            #expect(flags >= 0)
            #expect(flags & FD_CLOEXEC != 0)
            handle.close()
            #expect(handle.fileDescriptor == -1)
        }
    }

    @Test func bytesReachTheFileOnDisk() throws {
        try withScratchDirectory(.real) { fixture in
            let path = fixture.path("a")
            // Large enough that the pwrite and pread loops may take more than one turn.
            let bytes = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let handle = try fixture.fileSystem.openFile(path, mode: .createNew)
            try handle.write(bytes, at: 0)
            try handle.sync()
            handle.close()
            var info = stat()
            #expect(stat(path, &info) == 0)
            #expect(Int(info.st_size) == bytes.count)
            let reader = try fixture.fileSystem.openFile(path, mode: .readOnly)
            defer { reader.close() }
            #expect(try reader.read(count: bytes.count, at: 0) == bytes)
        }
    }

    @Test func errorsNameTheOperationPathAndErrno() throws {
        try withScratchDirectory(.real) { fixture in
            let path = fixture.path("missing")
            let error = try #require(thrownStorageError {
                _ = try fixture.fileSystem.openFile(path, mode: .readWrite)
            })
            #expect(error.code == .notFound)
            #expect(error.file == path)
            #expect(error.errno == ENOENT)
            #expect(error.message.contains(path))
            #expect(error.message.hasPrefix("Could not open"))
        }
    }

    @Test func renameAndRemoveChangeTheDirectoryOnDisk() throws {
        try withScratchDirectory(.real) { fixture in
            let fileSystem = fixture.fileSystem
            try writeScratchFile(fileSystem, fixture.path("a.tmp"), "x", sync: true).close()
            try fileSystem.rename(fixture.path("a.tmp"), to: fixture.path("a"))
            try fileSystem.syncDirectory(fixture.root)
            #expect(access(fixture.path("a"), F_OK) == 0)
            #expect(access(fixture.path("a.tmp"), F_OK) != 0)
            try fileSystem.removeFile(fixture.path("a"))
            #expect(access(fixture.path("a"), F_OK) != 0)
        }
    }
}
