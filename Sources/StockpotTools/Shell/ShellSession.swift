// One shell session: reads lines, runs statements as they complete and dot-commands, prints
// rows in the current mode and errors as `Error: ...`, and keeps count of what failed.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Stockpot

/// The state of a shell on one open store. Not thread-safe: one session per store.
final class ShellSession {
    let store: Store
    /// Standard output: rows, prompts, dot-command output.
    let output = ByteOutput.standardOutput()
    /// Whether standard input is a terminal: prompts, and failures do not change the status.
    let interactive: Bool
    /// How rows are printed.
    var mode: RowFormat
    /// The key of an encrypted store: `.dump FILE` writes an encrypted dump under it.
    let dumpKey: StoreEncryption?
    /// Whether each statement's time is printed on standard error.
    var timer = false
    /// Statements and dot-commands that failed.
    private(set) var failures = 0
    /// Set by `.quit`: stop reading.
    var quitRequested = false
    /// Set when standard output cannot be written: nothing more can be shown.
    private var outputFailure: ToolFailure?
    private var splitter = StatementSplitter()

    static let prompt = "stockpot> "
    static let continuationPrompt = "   ...> "

    /// A session on `store`; `dumpKey` is the key an encrypted store was opened with.
    init(store: Store, mode: RowFormat, interactive: Bool, dumpKey: StoreEncryption? = nil) {
        self.store = store
        self.dumpKey = dumpKey
        self.mode = mode
        self.interactive = interactive
    }

    /// Reads `fileDescriptor` to its end (or `.quit`), running what it holds.
    ///
    /// - Returns: 0, or 1 when the input is not a terminal and something failed, or 74 when
    ///   the input could not be read or the output written.
    func run(reading fileDescriptor: Int32) -> ExitCode {
        var reader = LineReader(fileDescriptor: fileDescriptor, maxLineBytes: 64 << 20)
        while !quitRequested && outputFailure == nil {
            if interactive { writePrompt() }
            let line: LineReader.Line?
            do {
                line = try reader.next()
            } catch {
                return ToolFailure("cannot read standard input: \(SystemError.describe(error.errorNumber))", status: .ioError).report()
            }
            guard let line else {
                if interactive { emit(Array("\n".utf8)) }
                break
            }
            switch line {
            case .tooLong(let count):
                fail("an input line is \(count) bytes; the limit is \(64 << 20)")
            case .line(let bytes):
                handle(bytes)
            }
        }
        if !quitRequested && outputFailure == nil {
            switch splitter.finish() {
            case .nothing: break
            case .statement(let sql): execute(sql)
            case .incomplete(let text): fail("incomplete statement at the end of the input (an open quote, brace or comment): \(text)")
            }
        }
        if let outputFailure {
            return output.readerWentAway ? .ioError : outputFailure.report()
        }
        return failures > 0 && !interactive ? .failure : .success
    }

    /// One input line: a dot-command between statements, else more statement text.
    private func handle(_ bytes: [UInt8]) {
        if splitter.isIdle, let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
            bytes[first] == UInt8(ascii: ".")
        {
            var text = bytes[first...]
            if text.last == 0x0D { text.removeLast() }
            runDotCommand(String(decoding: text, as: UTF8.self))
            return
        }
        for sql in splitter.feed(line: bytes) {
            guard !quitRequested && outputFailure == nil else { return }
            execute(sql)
        }
    }

    /// Runs one statement, printing its rows in the current mode.
    func execute(_ sql: String) {
        let started = ProgressBar.nanoseconds()
        let printer = RowPrinter(format: mode, output: output, flushEachRow: interactive)
        do throws(ToolFailure) {
            _ = try SmartStatement.run(sql, arguments: [], on: store, printer: printer)
        } catch {
            if output.failedErrorNumber != nil {
                outputFailure = error
                return
            }
            fail(error.message)
        }
        if timer {
            let seconds = Double(ProgressBar.nanoseconds() &- started) / 1e9
            StandardStream.error.write("Run Time: " + ProgressBar.decimal(seconds, places: 3) + " s\n")
        }
    }

    /// Writes `bytes` to standard output now.
    func emit(_ bytes: [UInt8]) {
        guard outputFailure == nil else { return }
        do throws(ToolFailure) {
            try output.append(bytes)
            try output.flush()
        } catch {
            outputFailure = error
        }
    }

    /// Writes `text` to standard output now.
    func emit(_ text: String) { emit(Array(text.utf8)) }

    /// Reports a failed statement or command on standard error and counts it.
    func fail(_ message: String) {
        try? output.flush()
        StandardStream.error.write("Error: \(message)\n")
        failures += 1
    }

    /// Notes that standard output could not be written; the session ends.
    func outputFailed(_ failure: ToolFailure) {
        outputFailure = failure
    }

    private func writePrompt() {
        emit(splitter.isIdle ? Self.prompt : Self.continuationPrompt)
    }
}
