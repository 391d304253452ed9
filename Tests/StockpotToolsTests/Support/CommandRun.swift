// Runs the `stockpot` binary once with arguments and no input, for the command-line tests.

import Foundation
import StockpotTestSupport

/// The outcome of one `stockpot` run.
struct CommandRun {
    var status: Int32
    var output: String
    var errors: String

    /// Runs `stockpot arguments...` with empty standard input and waits for it.
    static func stockpot(_ arguments: [String]) throws -> CommandRun {
        let process = Process()
        process.executableURL = ExecProcess.binaryURL
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let deadline = ProcessDeadline(pid: process.processIdentifier, naming: "stockpot " + arguments.joined(separator: " "))
        // Help texts are small, so reading one pipe after the other cannot fill the other.
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complained = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        deadline.cancel()
        return CommandRun(
            status: process.terminationStatus,
            output: String(decoding: printed, as: UTF8.self),
            errors: String(decoding: complained, as: UTF8.self))
    }
}
