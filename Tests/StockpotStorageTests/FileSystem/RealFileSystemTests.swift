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
            let first = try RealFileSystem().lockDirectory(fixture.root)
            let error = thrownStorageError { _ = try RealFileSystem().lockDirectory(fixture.root) }
            #expect(error?.code == .storeLocked)
            #expect(error?.errno == EWOULDBLOCK)
            first.release()
            let second = try RealFileSystem().lockDirectory(fixture.root)
            second.release()
        }
    }

    @Test func warmingAMappingSparesItsFirstReadsThePageFaults() throws {
        try withScratchDirectory(.real) { fixture in
            // 8 MiB just written, so in the page cache: 2,048 pages, written a page at a time
            // as a log is (one large write may be cached in large folios, which a fault maps
            // whole).
            let size = 8 << 20
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 / 4096 &* 31) }
            let handle = try fixture.fileSystem.openFile(fixture.path("segment"), mode: .createNew)
            for offset in stride(from: 0, to: size, by: 4096) { try handle.write(Array(bytes[offset..<offset + 4096]), at: offset) }
            let expected = stride(from: 0, to: size, by: 4096).reduce(UInt64(0)) { $0 &+ UInt64(bytes[$1]) }
            // This thread's minor faults while it reads one byte of every page.
            func faultsReadingEveryPage(_ region: MappedRegion) -> Int {
                var usage = rusage()
                getrusage(Self.thisThread, &usage)
                let before = usage.ru_minflt
                var sum: UInt64 = 0
                for offset in stride(from: 0, to: region.bytes.count, by: 4096) { sum &+= UInt64(region.bytes[offset]) }
                getrusage(Self.thisThread, &usage)
                #expect(sum == expected)
                return usage.ru_minflt - before
            }
            let cold = try #require(handle.mapReadOnly(count: size))
            let coldFaults = faultsReadingEveryPage(cold)
            let warmed = try #require(handle.mapReadOnly(count: size))
            warmed.mapResidentPages()
            let warmFaults = faultsReadingEveryPage(warmed)
            // The kernel maps at most 16 cached pages around a fault (fault-around).
            #expect(coldFaults >= 2048 / 32, "cold mapping: \(coldFaults) faults")
            #expect(warmFaults <= 4, "warmed mapping: \(warmFaults) faults (cold: \(coldFaults))")
            handle.close()
        }
    }

    /// `RUSAGE_THREAD` (1), which Glibc's module does not export: tests run in parallel, so
    /// the process's count would include other tests' faults.
    static let thisThread: Int32 = 1

    @Test func aLockIsReleasedWhenItsLastReferenceGoes() throws {
        try withScratchDirectory(.real) { fixture in
            func lockAndDrop() throws { _ = try RealFileSystem().lockDirectory(fixture.root) }
            try lockAndDrop()
            try RealFileSystem().lockDirectory(fixture.root).release()
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
            let error = try #require(
                thrownStorageError {
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
