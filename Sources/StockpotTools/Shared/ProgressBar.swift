// Progress on standard error: a bar redrawn in place at most ten times a second (entries,
// MB, entries/s, and the ETA when the total is known), only when standard error is a
// terminal. Logs and pipes get the summary line each command prints instead.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reports the progress of work measured in entries and bytes. Not thread-safe.
package final class ProgressBar {
    private let label: String
    /// Total bytes (for the bar and ETA) when known.
    private let totalBytes: Int?
    /// Total entries, when known instead of bytes.
    private let totalEntries: Int?
    private let enabled: Bool
    private let started = ProgressBar.nanoseconds()
    private var lastDrawn: UInt64 = 0
    private var drawn = false

    /// A bar labelled `label`; drawn only when `enabled` and standard error is a terminal.
    package init(label: String, totalBytes: Int? = nil, totalEntries: Int? = nil, enabled: Bool = true) {
        self.label = label
        self.totalBytes = totalBytes
        self.totalEntries = totalEntries
        self.enabled = enabled && isatty(2) != 0
    }

    /// Seconds since the bar was made.
    package var elapsedSeconds: Double {
        Double(Self.nanoseconds() &- started) / 1e9
    }

    /// Records progress; redraws at most ten times a second.
    package func update(entries: Int, bytes: Int) {
        guard enabled else { return }
        let now = Self.nanoseconds()
        guard now &- lastDrawn >= 100_000_000 else { return }
        lastDrawn = now
        drawn = true
        StandardStream.error.write("\r" + line(entries: entries, bytes: bytes) + "\u{1B}[K")
    }

    /// Clears the bar's line, so the summary that follows starts on a clean line.
    package func finish() {
        guard enabled, drawn else { return }
        StandardStream.error.write("\r\u{1B}[K")
    }

    private func line(entries: Int, bytes: Int) -> String {
        let seconds = elapsedSeconds
        let fraction: Double?
        if let totalBytes, totalBytes > 0 {
            fraction = min(1, Double(bytes) / Double(totalBytes))
        } else if let totalEntries, totalEntries > 0 {
            fraction = min(1, Double(entries) / Double(totalEntries))
        } else {
            fraction = nil
        }
        var text = label
        if let fraction {
            let width = 24
            let filled = Int(fraction * Double(width))
            text += " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
        }
        let rate = seconds > 0 ? Double(entries) / seconds : 0
        text +=
            " \(entries) entries, " + Self.decimal(Double(bytes) / 1e6, places: 1) + " MB, "
            + Self.decimal(rate, places: 0) + " entries/s"
        if let fraction, fraction > 0, seconds > 0 {
            text += ", ETA " + Self.decimal(seconds * (1 - fraction) / fraction, places: 0) + " s"
        }
        return text
    }

    /// `value` with `places` decimals, without Foundation.
    package static func decimal(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "-" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        guard places > 0 else { return String(scaled) }
        let whole = String(scaled / Int(scale))
        let fraction = String(abs(scaled) % Int(scale))
        return whole + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    /// A monotonic clock in nanoseconds.
    package static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
