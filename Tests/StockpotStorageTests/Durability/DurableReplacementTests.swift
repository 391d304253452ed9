// The crash-safe replacement service: a file written whole is the old one or the new one after
// any power cut, never a mix; a staged directory takes a target's place and survives a power
// cut once installed; a failed install leaves the old target in place.

import Testing
@testable import StockpotStorage

@Suite struct DurableReplacementTests {
    @Test func aReplacedFileIsWholeAfterAPowerCut() throws {
        let fileSystem = MemoryFileSystem()
        try fileSystem.createDirectory("/d")
        try fileSystem.syncDirectory("/")
        try DurableReplacement.writeFile([1, 2, 3], to: "/d/f", directory: "/d", fileSystem: fileSystem)
        try DurableReplacement.writeFile([4, 5], [6], to: "/d/f", directory: "/d", fileSystem: fileSystem)
        fileSystem.simulatePowerLoss()
        #expect(fileSystem.fileContents("/d/f") == [4, 5, 6])
        #expect(try fileSystem.listDirectory("/d") == ["f"], "no temporary file is left")
    }

    @Test func anInstalledDirectoryReplacesTheTargetDurably() throws {
        let fileSystem = MemoryFileSystem()
        for directory in ["/p", "/p/target", "/p/staged"] { try fileSystem.createDirectory(directory) }
        try fileSystem.syncDirectory("/")
        try DurableReplacement.writeFile([1], to: "/p/target/old", directory: "/p/target", fileSystem: fileSystem)
        try DurableReplacement.writeFile([2], to: "/p/staged/new", directory: "/p/staged", fileSystem: fileSystem)
        try fileSystem.syncDirectory("/p")
        try DurableReplacement.installDirectory("/p/staged", at: "/p/target", aside: "/p/aside", parent: "/p", fileSystem: fileSystem)
        #expect(fileSystem.fileContents("/p/target/new") == [2])
        #expect(!fileSystem.fileExists("/p/target/old") && !fileSystem.fileExists("/p/aside"))
        fileSystem.simulatePowerLoss()
        #expect(fileSystem.fileContents("/p/target/new") == [2], "the install survives a power cut")
        #expect(!fileSystem.fileExists("/p/staged"))
    }

    @Test func aFailedInstallPutsTheOldTargetBack() throws {
        let memory = MemoryFileSystem()
        for directory in ["/p", "/p/target", "/p/staged"] { try memory.createDirectory(directory) }
        try DurableReplacement.writeFile([1], to: "/p/target/old", directory: "/p/target", fileSystem: memory)
        // The second rename (staged to target) fails.
        let fileSystem = FaultInjectingFileSystem(wrapping: memory, only: [.rename])
        fileSystem.failCall(2, with: .ioError)
        let error = thrownStorageError {
            try DurableReplacement.installDirectory("/p/staged", at: "/p/target", aside: "/p/aside", parent: "/p", fileSystem: fileSystem)
        }
        #expect(error?.code == .ioError)
        #expect(memory.fileContents("/p/target/old") == [1])
        #expect(memory.fileExists("/p/staged") && !memory.fileExists("/p/aside"))
    }
}
