// Where a shell session's lines come from: the terminal through libedit (with prompts, editing,
// history and Ctrl-C), or a pipe or file read as bytes (no prompts): standard input that is
// not a terminal, and the files `.read` runs.

/// One thing a shell input gave.
enum ShellLine {
    case line([UInt8])
    /// A line over the limit, dropped.
    case tooLong(byteCount: Int)
    /// Ctrl-C while a line was typed: drop it and the statement it continued.
    case interrupted
    case end
}

/// A source of the session's lines.
protocol ShellInput {
    /// The next line; `prompt` is shown first when the input is a terminal.
    ///
    /// - Throws: an I/O ``ToolFailure`` when reading fails.
    mutating func next(prompt: String) throws(ToolFailure) -> ShellLine
}

/// A pipe or file: lines as bytes, no prompt.
struct PipedShellInput: ShellInput {
    private var reader: LineReader

    init(reading fileDescriptor: Int32) {
        reader = LineReader(fileDescriptor: fileDescriptor, maxLineBytes: ShellSession.maxLineBytes)
    }

    mutating func next(prompt: String) throws(ToolFailure) -> ShellLine {
        let line: LineReader.Line?
        do {
            line = try reader.next()
        } catch {
            throw ToolFailure("cannot read the input: \(SystemError.describe(error.errorNumber))", status: .ioError)
        }
        switch line {
        case nil: return .end
        case .tooLong(let count)?: return .tooLong(byteCount: count)
        case .line(let bytes)?: return .line(bytes)
        }
    }
}

/// The terminal, through libedit.
struct EditedShellInput: ShellInput {
    let editor: LineEditor

    mutating func next(prompt: String) throws(ToolFailure) -> ShellLine {
        switch editor.read(prompt: prompt) {
        case .line(let text): return .line(Array(text.utf8))
        case .interrupted: return .interrupted
        case .end: return .end
        }
    }
}
