// Progress on standard error: a bar redrawn in place (entries, MB, entries/s, ETA) when
// standard error is a terminal, otherwise a plain line at every tenth of the work.

import Glibc

/// Reports the progress of `total` items of work on standard error.
final class ProgressBar {
    private let label: String
    private let total: Int
    private let isTerminal = isatty(STDERR_FILENO) != 0
    /// When the bar was made: the start of the work it reports.
    private let started = MonotonicClock.nanoseconds()
    private var lastDrawn: UInt64 = 0
    private var nextTenth = 1

    init(label: String, total: Int) {
        self.label = label
        self.total = max(total, 1)
    }

    /// A message on a line of its own.
    static func message(_ text: String) {
        write("stockpot-bench demo: " + text + "\n")
    }

    /// Records that `done` items (`bytes` bytes) are done: redraws the bar at most ten times
    /// a second on a terminal, or prints a line when another tenth is done.
    func update(done: Int, bytes: Int) {
        let now = MonotonicClock.nanoseconds()
        let seconds = Double(now &- started) / 1e9
        if isTerminal {
            guard now &- lastDrawn >= 100_000_000 || done == total else { return }
            lastDrawn = now
            write("\r" + bar(done) + " " + figures(done: done, bytes: bytes, seconds: seconds) + "\u{1B}[K")
        } else {
            guard done * 10 >= nextTenth * total else { return }
            while done * 10 >= nextTenth * total { nextTenth += 1 }
            write(label + ": " + figures(done: done, bytes: bytes, seconds: seconds) + "\n")
        }
    }

    /// Ends the bar's line.
    func finish(done: Int, bytes: Int, seconds: Double) {
        if isTerminal {
            write("\r" + bar(done) + " " + figures(done: done, bytes: bytes, seconds: seconds, eta: false) + "\u{1B}[K\n")
        }
    }

    private func bar(_ done: Int) -> String {
        let width = 30
        let filled = min(width, done * width / total)
        return label + " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
    }

    private func figures(done: Int, bytes: Int, seconds: Double, eta: Bool = true) -> String {
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var text = "\(done)/\(total) entries, " + Self.decimal(Double(bytes) / 1e6, places: 1) + " MB, "
            + Self.decimal(rate, places: 0) + " entries/s"
        if eta {
            let remaining = rate > 0 ? Double(total - done) / rate : 0
            text += ", ETA " + Self.decimal(remaining, places: 1) + " s"
        } else {
            text += ", " + Self.decimal(seconds, places: 2) + " s"
        }
        return text
    }

    /// `value` with `places` decimals, without Foundation.
    static func decimal(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "-" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        guard places > 0 else { return String(scaled) }
        let whole = String(scaled / Int(scale))
        let fraction = String(abs(scaled) % Int(scale))
        return whole + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    private func write(_ text: String) {
        Self.write(text)
    }

    private static func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
