// Runs a system tool (mount, umount, cp) for the tests that set up real conditions: a
// read-only mount, a full disk.

import Foundation
import StockpotTestSupport

/// Runs `tool arguments...` with its standard error discarded; returns its exit status, or -1
/// when it cannot be started.
func runSystemCommand(_ tool: String, _ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return -1 }
    let deadline = ProcessDeadline(pid: process.processIdentifier, seconds: 120, naming: ([tool] + arguments).joined(separator: " "))
    process.waitUntilExit()
    deadline.cancel()
    return process.terminationStatus
}
