// The test support's child processes inherit only their standard streams: a server they
// start outlives the test, and a descriptor it inherited would keep another test's pipe open.

import Foundation
import StockpotTestSupport
import Testing

@Suite("Child processes")
struct ChildProcessTests {
    @Test func aChildInheritsNoDescriptorBeyondItsStandardStreams() throws {
        let directory = try TemporaryDirectory()
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        // `test -e /proc/self/fd/N` is true exactly when the child holds descriptor N.
        let held = try ChildProcess.run(["/usr/bin/test", "-e", "/proc/self/fd/\(ends[1])"], output: directory.file("out"))
        #expect(held == 1)
        let standard = try ChildProcess.run(["/usr/bin/test", "-e", "/proc/self/fd/2"], output: directory.file("out"))
        #expect(standard == 0)
    }
}
