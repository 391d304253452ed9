// One shell session: reads lines (ShellInput), runs statements as they complete and
// dot-commands, prints rows in the current mode to standard output or the file `.output` names,
// errors as `Error: ...`, and keeps count of what failed.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Stockpot

/// The state of a shell on one open store. Not thread-safe: one session per store.
final class ShellSession {
    let store: Store
    /// Standard output: rows and dot-command output unless `.output` sent them elsewhere.
    let standardOutput = ByteOutput.standardOutput()
    /// Where rows and dot-command output go now (`.output FILE`, `.once FILE`).
    var output: ByteOutput
    /// Whether `output` goes back to standard output after the next statement (`.once`).
    var outputIsOnce = false
    /// Whether standard input is a terminal: prompts, line editing, Ctrl-C, and failures do
    /// not change the exit status.
    let interactive: Bool
    /// How rows are printed.
    var mode: RowFormat
    /// Whether `table` and `csv` rows begin with the column names (`.headers`).
    var headers = false
    /// Whether the first failure ends the session with status 1 (`.bail`).
    var bail = false
    /// The key of an encrypted store: `.dump FILE` writes an encrypted dump under it.
    let dumpKey: StoreEncryption?
    /// Whether each statement's time is printed on standard error.
    var timer = false
    /// Statements and dot-commands that failed.
    private(set) var failures = 0
    /// Set by `.quit` (and by a failure under `.bail`): stop reading.
    var quitRequested = false
    /// How many `.read` files are being run inside each other.
    var readDepth = 0
    /// Set when standard output cannot be written: nothing more can be shown.
    private var outputFailure: ToolFailure?
    var splitter = StatementSplitter()

    static let prompt = "stockpot> "
    static let continuationPrompt = "   ...> "
    /// The longest input line.
    static let maxLineBytes = 64 << 20

    /// A session on `store`; `dumpKey` is the key an encrypted store was opened with.
    init(store: Store, mode: RowFormat, interactive: Bool, dumpKey: StoreEncryption? = nil) {
        self.store = store
        self.dumpKey = dumpKey
        self.mode = mode
        self.interactive = interactive
        output = standardOutput
    }

    /// Reads `input` to its end (or `.quit`), running what it holds.
    ///
    /// - Returns: 0, or 1 when the input is not a terminal and something failed (or a
    ///   failure under `.bail`), or 74 when the input could not be read or the output written.
    func run(_ input: inout some ShellInput) -> ExitCode {
        do throws(ToolFailure) {
            try runLines(from: &input)
        } catch {
            return error.report()
        }
        endRedirection()
        if let outputFailure {
            return standardOutput.readerWentAway ? .ioError : outputFailure.report()
        }
        if bail && failures > 0 { return .failure }
        return failures > 0 && !interactive ? .failure : .success
    }

    /// Runs every line of `input` with the session's splitter; a statement left without `;`
    /// at the end is run.
    func runLines(from input: inout some ShellInput) throws(ToolFailure) {
        while !quitRequested && outputFailure == nil {
            let line = try input.next(prompt: splitter.isIdle ? Self.prompt : Self.continuationPrompt)
            switch line {
            case .end:
                if interactive && readDepth == 0 { endTerminalLine() }
                finishStatement()
                return
            case .interrupted:
                splitter = StatementSplitter()
                endTerminalLine()
            case .tooLong(let count):
                fail("an input line is \(count) bytes; the limit is \(Self.maxLineBytes)")
            case .line(let bytes):
                handle(bytes)
            }
        }
    }

    /// Runs what the splitter holds at the end of an input.
    private func finishStatement() {
        guard !quitRequested && outputFailure == nil else { return }
        switch splitter.finish() {
        case .nothing: break
        case .statement(let sql): execute(sql)
        case .incomplete(let text): fail("incomplete statement at the end of the input (an open quote, brace or comment): \(text)")
        }
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

    /// Runs one statement, printing its rows in the current mode; on a terminal, Ctrl-C stops
    /// it at its next row.
    func execute(_ sql: String) {
        let started = ProgressBar.nanoseconds()
        let printer = RowPrinter(format: mode, output: output, flushEachRow: interactive && output === standardOutput)
        do throws(ToolFailure) {
            if interactive {
                _ = try ShellInterrupt.whileRunning { (interruption) throws(ToolFailure) in
                    try SmartStatement.run(
                        sql, arguments: [], on: store, printer: printer, header: headers, budget: .default.interruptible(by: interruption))
                }
            } else {
                _ = try SmartStatement.run(sql, arguments: [], on: store, printer: printer, header: headers)
            }
        } catch {
            if output === standardOutput, output.failedErrorNumber != nil {
                outputFailure = error
                return
            }
            if output !== standardOutput, output.failedErrorNumber != nil {
                output.abandon()
                output = standardOutput
            }
            fail(error.message)
        }
        if timer {
            let seconds = Double(ProgressBar.nanoseconds() &- started) / 1e9
            StandardStream.error.write("Run Time: " + ProgressBar.decimal(seconds, places: 3) + " s\n")
        }
        if outputIsOnce { endRedirection() }
    }

    /// Sends output back to standard output, completing the file it went to.
    func endRedirection() {
        outputIsOnce = false
        guard output !== standardOutput else { return }
        let file = output
        output = standardOutput
        do throws(ToolFailure) {
            try file.finish()
        } catch {
            file.abandon()
            fail(error.message)
        }
    }

    /// Writes `bytes` to the current output now.
    func emit(_ bytes: [UInt8]) {
        guard outputFailure == nil else { return }
        do throws(ToolFailure) {
            try output.append(bytes)
            try output.flush()
        } catch {
            if output === standardOutput {
                outputFailure = error
            } else {
                output.abandon()
                output = standardOutput
                fail(error.message)
            }
        }
    }

    /// Writes `text` to the current output now.
    func emit(_ text: String) { emit(Array(text.utf8)) }

    /// Ends the line the terminal's prompt is on (after Ctrl-C or Ctrl-D): on standard output
    /// even while `.output` sends rows to a file.
    private func endTerminalLine() {
        do throws(ToolFailure) {
            try standardOutput.append(byte: 0x0A)
            try standardOutput.flush()
        } catch {
            outputFailure = error
        }
    }

    /// Reports a failed statement or command on standard error and counts it; under `.bail`
    /// the session ends.
    func fail(_ message: String) {
        try? output.flush()
        StandardStream.error.write("Error: \(message)\n")
        failures += 1
        if bail { quitRequested = true }
    }

    /// Notes that standard output could not be written; the session ends.
    func outputFailed(_ failure: ToolFailure) {
        outputFailure = failure
    }
}
