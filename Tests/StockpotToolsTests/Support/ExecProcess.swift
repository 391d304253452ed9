// The end-to-end harness: starts the built `stockpot exec` as a child process and converses
// with it over pipes, one request line out, exactly one response line back.

import Foundation
import StockpotJSON
import StockpotTestSupport

/// A running `stockpot exec STORE` and its pipes. Not thread-safe: one test drives it.
final class ExecProcess {
    /// Where the build put the `stockpot` binary: next to the test bundle.
    static var binaryURL: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("stockpot")
    }

    /// How long a response may take before the harness gives up (a hung child fails the test
    /// rather than the run).
    static let timeoutMilliseconds: Int32 = 30_000

    struct HarnessError: Error, CustomStringConvertible {
        var description: String
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var received: [UInt8] = []
    /// Kept alive until the child has exited (the temporary store whose directory it uses).
    private let owner: AnyObject?

    /// Starts `stockpot exec directory` with `options` after the directory; `owner` is kept
    /// alive as long as this process object.
    init(directory: String, options: [String] = [], owner: AnyObject? = nil) throws {
        self.owner = owner
        signal(SIGPIPE, SIG_IGN)  // a child that died must fail the test, not kill the runner
        process.executableURL = Self.binaryURL
        process.arguments = ["exec", directory] + options
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    deinit {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        // A child that never sees the end of its input (another process holding the pipe)
        // must not hang the whole run: after two minutes it is killed, and says so.
        let deadline = ProcessDeadline(pid: process.processIdentifier, seconds: 120, naming: "stockpot exec (its input closed)")
        process.waitUntilExit()
        deadline.cancel()
    }

    /// Writes `bytes` to the child's standard input as they are.
    func write(_ bytes: [UInt8]) throws {
        let fd = input.fileHandleForWriting.fileDescriptor
        try bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) throws -> Void in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw HarnessError(description: "writing to stockpot failed: errno \(errno)")
                }
                offset += written
            }
        }
    }

    /// Reads the next response line (without its `\n`).
    func readLine() throws -> [UInt8] {
        let fd = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = received.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(received[..<newline])
                received.removeSubrange(...newline)
                return line
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Self.timeoutMilliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { throw HarnessError(description: "no response within the timeout") }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw HarnessError(description: "stockpot closed its output; stderr: \(readErrors())")
            }
            received.append(contentsOf: chunk[..<count])
        }
    }

    /// Sends one raw line (a `\n` is added) and returns the parsed response.
    func send(line: String) throws -> JSONValue {
        try write(Array(line.utf8) + [UInt8(ascii: "\n")])
        return try JSONReader.parse(try readLine())
    }

    /// Sends a request object as compact JSON and returns the parsed response.
    func send(_ request: JSONValue) throws -> JSONValue {
        try write(JSONWriter.write(request) + [UInt8(ascii: "\n")])
        return try JSONReader.parse(try readLine())
    }

    /// Sends a request that must succeed and returns its `result`.
    @discardableResult
    func result(_ request: JSONValue) throws -> JSONValue {
        let response = try send(request)
        guard response["ok"] == true, let result = response["result"] else {
            throw HarnessError(description: "\(request.jsonText) failed: \(response.jsonText)")
        }
        return result
    }

    /// Sends a raw request line that must succeed and returns its `result`.
    @discardableResult
    func result(line: String) throws -> JSONValue {
        let response = try send(line: line)
        guard response["ok"] == true, let result = response["result"] else {
            throw HarnessError(description: "\(line) failed: \(response.jsonText)")
        }
        return result
    }

    /// Sends a request that must fail and returns its error code.
    func errorCode(_ request: JSONValue) throws -> String {
        try Self.errorCode(of: try send(request), request: request.jsonText)
    }

    /// The error code of a failure response.
    static func errorCode(of response: JSONValue, request: String) throws -> String {
        guard response["ok"] == false, let code = response["error"]?["code"]?.stringValue,
            response["error"]?["message"]?.stringValue?.isEmpty == false
        else {
            throw HarnessError(description: "\(request) did not fail with a code and message: \(response.jsonText)")
        }
        return code
    }

    /// Closes standard input, waits for the exit, and returns the status, anything left on
    /// standard output and standard error.
    func finish() throws -> (status: Int32, output: [UInt8], errors: String) {
        try input.fileHandleForWriting.close()
        let deadline = ProcessDeadline(pid: process.processIdentifier, naming: "stockpot exec (finishing)")
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        deadline.cancel()
        return (process.terminationStatus, received + [UInt8](rest), readErrors())
    }

    private func readErrors() -> String {
        if process.isRunning { return "(still running)" }
        return String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
}
