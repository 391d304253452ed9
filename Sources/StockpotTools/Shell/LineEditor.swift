// Reading the shell's lines on a terminal through libedit (docs/cli.md, "stockpot shell"):
// line editing, and a history kept in ~/.stockpot_history (the last 1,000 lines) across
// sessions. Ctrl-C drops the line being typed; Ctrl-D on an empty line ends the input.

import CLibEdit
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal's lines, edited. One per process: libedit's readline interface is global.
final class LineEditor {
    /// What ``read(prompt:)`` got.
    enum Input {
        case line(String)
        /// Ctrl-C while typing: the line is dropped.
        case interrupted
        /// Ctrl-D on an empty line, or the terminal went away.
        case end
    }

    /// Lines kept in the history file.
    static let historyLines: Int32 = 1_000

    private let historyPath: String?

    /// Sets libedit up and loads the history from `historyPath` (nil: no history file).
    init(historyPath: String?) {
        self.historyPath = historyPath
        stockpot_editline_setup()
        using_history()
        stifle_history(Self.historyLines)
        if let historyPath { _ = read_history(historyPath) }
    }

    /// The history file: `$HOME/.stockpot_history`, or nil without a home directory.
    static var defaultHistoryPath: String? {
        guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty else { return nil }
        return home + "/.stockpot_history"
    }

    /// Reads one line after `prompt`; a non-blank line joins the history.
    func read(prompt: String) -> Input {
        _ = ShellInterrupt.take()
        let pointer = readline(prompt)
        if ShellInterrupt.take() {
            free(pointer)
            return .interrupted
        }
        guard let pointer else { return .end }
        defer { free(pointer) }
        let line = String(cString: pointer)
        if line.contains(where: { !$0.isWhitespace }) { _ = add_history(line) }
        return .line(line)
    }

    /// Writes the history file (owner-only: the lines may hold data).
    func saveHistory() {
        guard let historyPath else { return }
        if write_history(historyPath) == 0 { chmod(historyPath, 0o600) }
        _ = history_truncate_file(historyPath, Self.historyLines)
    }
}
