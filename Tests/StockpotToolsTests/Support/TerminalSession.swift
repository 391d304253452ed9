// `stockpot shell` on a pseudo-terminal, for the tests of line editing, history and Ctrl-C:
// util-linux `script` runs the shell with a pty as its terminal, the test types into script's
// standard input (Ctrl-C is the byte 0x03, which the pty's line discipline turns into SIGINT)
// and reads what the terminal shows from script's standard output.

import Foundation
import Synchronization

/// One shell on a pseudo-terminal.
final class TerminalSession: Sendable {
    private let process: Process
    private let input: FileHandle
    private let shown = ScreenBytes()

    /// Starts `stockpot arguments...` on a terminal, with `home` as its HOME (for the history
    /// file).
    init(_ arguments: [String], home: String) throws {
        // `script` hands the command to a shell; `exec` makes the binary replace it, so no
        // shell waits in the terminal's foreground group to be ended by Ctrl-C's SIGINT (dash,
        // a common /bin/sh, does not replace itself with a lone command as bash does).
        let command = "exec " + ([ExecProcess.binaryURL.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qfec", command, "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        environment["TERM"] = "xterm"
        environment["SHELL"] = "/bin/sh"
        environment["STOCKPOT_KEY_FILE"] = nil
        process.environment = environment
        let inputPipe = Pipe()
        let outputPipe = Pipe()
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = outputPipe
        input = inputPipe.fileHandleForWriting
        let reading = outputPipe.fileHandleForReading
        let shown = self.shown
        reading.readabilityHandler = { handle in
            let data = handle.availableData
            shown.bytes.withLock { $0 += [UInt8](data) }
        }
        try process.run()
    }

    /// Everything the terminal has shown so far, carriage returns dropped.
    var screen: String {
        String(decoding: shown.bytes.withLock { $0 }.filter { $0 != 0x0D }, as: UTF8.self)
    }

    /// Types `text` (control characters included).
    func type(_ text: String) {
        input.write(Data(text.utf8))
    }

    /// Waits until the terminal has shown `text` `count` times (up to 20 s); false if it has not.
    @discardableResult
    func waitFor(_ text: String, count: Int = 1) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if screen.components(separatedBy: text).count - 1 >= count { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// Waits for the shell to end (up to 20 s) and returns its exit status (nil: still running,
    /// then killed).
    func finish() -> Int32? {
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard !process.isRunning else {
            process.terminate()
            return nil
        }
        try? input.close()
        return process.terminationStatus
    }
}

/// What the terminal has shown, appended to by the reading handler's thread.
private final class ScreenBytes: Sendable {
    let bytes = Mutex<[UInt8]>([])
}
