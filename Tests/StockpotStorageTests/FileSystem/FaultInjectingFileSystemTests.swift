// Pins the fault-injecting wrapper: it counts every I/O call, fails exactly the Nth (once or
// from then on) with the chosen errno, and a short write leaves exactly half the bytes.
#if canImport(Glibc)
    import Glibc
#endif
import StockpotStorage
import Testing

@Suite struct FaultInjectingFileSystemTests {
    /// One call of every counted kind, in order (12 counted calls; fileExists and close are
    /// not counted).
    static func workload(_ fileSystem: any FileSystem) throws {
        try fileSystem.createDirectory("/db")  // 1
        let handle = try fileSystem.openFile("/db/a.tmp", mode: .createNew)  // 2
        defer { handle.close() }
        try handle.write(Array("0123456789".utf8), at: 0)  // 3
        try handle.sync()  // 4
        _ = try handle.size()  // 5
        _ = try handle.read(count: 4, at: 0)  // 6
        try handle.truncate(to: 8)  // 7
        try fileSystem.rename("/db/a.tmp", to: "/db/a")  // 8
        try fileSystem.syncDirectory("/db")  // 9
        _ = try fileSystem.listDirectory("/db")  // 10
        _ = fileSystem.fileExists("/db/a")
        try fileSystem.lockDirectory("/db").release()  // 11
        try fileSystem.removeFile("/db/a")  // 12
    }

    @Test func callCountCountsEveryIOCall() throws {
        let fileSystem = FaultInjectingFileSystem(wrapping: MemoryFileSystem())
        try Self.workload(fileSystem)
        #expect(fileSystem.callCount == 12)
        #expect(fileSystem.faultsInjected == 0)
        fileSystem.resetCallCount()
        #expect(fileSystem.callCount == 0)
    }

    @Test(arguments: [
        (FaultInjectingFileSystem.FaultKind.noSpace, ENOSPC),
        (.ioError, EIO), (.shortWrite, ENOSPC),
    ])
    func theNthCallFailsWithTheChosenErrno(kind: FaultInjectingFileSystem.FaultKind, errno: Int32) throws {
        for call in 1...12 {
            let fileSystem = FaultInjectingFileSystem(wrapping: MemoryFileSystem())
            fileSystem.failCall(call, with: kind)
            let error = thrownStorageError { try Self.workload(fileSystem) }
            #expect(error?.code == .ioError, "call \(call)")
            // A short write fails with ENOSPC; any other call hit by it fails as EIO.
            let expected = kind == .shortWrite && call != 3 ? EIO : errno
            #expect(error?.errno == expected, "call \(call)")
            #expect(error?.message.hasPrefix("Injected fault") == true, "call \(call)")
            #expect(fileSystem.callCount == call, "the workload stops at the failing call")
            #expect(fileSystem.faultsInjected == 1)
        }
    }

    @Test func aOnceFaultFailsOnlyThatCall() throws {
        let memory = MemoryFileSystem()
        let fileSystem = FaultInjectingFileSystem(wrapping: memory)
        fileSystem.failCall(2, with: .ioError, mode: .once)
        try fileSystem.createDirectory("/db")
        #expect(thrownStorageError { try fileSystem.createDirectory("/db/x") }?.errno == EIO)
        #expect(!memory.fileExists("/db/x"), "a failed call does not reach the wrapped file system")
        try fileSystem.createDirectory("/db/x")
        try fileSystem.createDirectory("/db/y")
        #expect(fileSystem.faultsInjected == 1)
        #expect(fileSystem.callCount == 4)
    }

    @Test func aPersistentFaultFailsEveryCallFromN() throws {
        let fileSystem = FaultInjectingFileSystem(wrapping: MemoryFileSystem())
        fileSystem.failCall(2, with: .noSpace, mode: .persistent)
        try fileSystem.createDirectory("/db")
        for _ in 0..<5 {
            #expect(thrownStorageError { try fileSystem.syncDirectory("/db") }?.errno == ENOSPC)
        }
        #expect(fileSystem.faultsInjected == 5)
        fileSystem.clearFault()
        try fileSystem.syncDirectory("/db")
        #expect(fileSystem.faultsInjected == 5)
    }

    @Test(arguments: [10, 7, 1])
    func aShortWriteLeavesExactlyHalfTheBytes(count: Int) throws {
        let memory = MemoryFileSystem()
        let fileSystem = FaultInjectingFileSystem(wrapping: memory)
        let handle = try fileSystem.openFile("/a", mode: .createNew)
        fileSystem.failCall(2, with: .shortWrite)
        let bytes = (0..<count).map { UInt8($0 + 1) }
        let error = thrownStorageError { try handle.write(bytes, at: 0) }
        #expect(error?.code == .ioError)
        #expect(error?.errno == ENOSPC)
        #expect(memory.fileContents("/a") == Array(bytes.prefix(count / 2)))
    }

    @Test func aShortWriteWorksOverTheRealFileSystem() throws {
        try withScratchDirectory(.real) { fixture in
            let fileSystem = FaultInjectingFileSystem(wrapping: fixture.fileSystem, only: [.write])
            let handle = try fileSystem.openFile(fixture.path("a"), mode: .createNew)
            defer { handle.close() }
            fileSystem.failCall(1, with: .shortWrite)
            #expect(thrownStorageError { try handle.write(Array("abcdefgh".utf8), at: 0) }?.errno == ENOSPC)
            #expect(try readScratchText(fixture.fileSystem, fixture.path("a")) == "abcd")
        }
    }

    @Test func onlyTheChosenOperationsAreCountedAndFail() throws {
        let fileSystem = FaultInjectingFileSystem(wrapping: MemoryFileSystem(), only: [.write, .sync])
        try Self.workload(fileSystem)
        #expect(fileSystem.callCount == 2)
        let failing = FaultInjectingFileSystem(wrapping: MemoryFileSystem(), only: [.write, .sync])
        failing.failCall(2, with: .ioError)
        let error = thrownStorageError { try Self.workload(failing) }
        #expect(error?.message.contains("fsync") == true)
        #expect(failing.callCount == 2)
    }

    @Test func everyCallOfAWorkloadCanBeFailedInTurn() throws {
        let probe = FaultInjectingFileSystem(wrapping: MemoryFileSystem())
        try Self.workload(probe)
        var failures = 0
        for call in 1...probe.callCount {
            let fileSystem = FaultInjectingFileSystem(wrapping: MemoryFileSystem())
            fileSystem.failCall(call, with: .ioError)
            if thrownStorageError({ try Self.workload(fileSystem) }) != nil { failures += 1 }
        }
        #expect(failures == probe.callCount)
        let beyond = FaultInjectingFileSystem(wrapping: MemoryFileSystem())
        beyond.failCall(probe.callCount + 1, with: .ioError)
        try Self.workload(beyond)
        #expect(beyond.faultsInjected == 0)
    }
}
