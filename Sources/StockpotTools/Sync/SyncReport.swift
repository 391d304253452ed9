// What `stockpot sync` prints: one summary line per soup (or a JSON object), conflicts listed,
// and the progress bar on standard error.

import Foundation
import StockpotJSON
import StockpotSync
import Synchronization

/// The output of `stockpot sync`.
enum SyncReport {
    static func print(soup: String, steps: [(name: String, summary: SyncSummary)], json: Bool) {
        let summaries = steps.map(\.summary)
        if json {
            let value = JSONValue.object(
                JSONObject([
                    ("soupName", .string(soup)),
                    ("steps", .array(steps.map { .object(JSONObject([("step", .string($0.name)), ("summary", $0.summary.jsonValue)])) })),
                ]))
            StandardStream.output.write(String(decoding: JSONWriter.write(value), as: UTF8.self) + "\n")
            return
        }
        var parts: [String] = []
        for (name, summary) in steps {
            parts.append(
                "\(name): \(summary.considered) considered, \(summary.applied) applied, \(summary.deleted) deleted, "
                    + "\(summary.unchanged) unchanged, \(summary.skipped) skipped, \(summary.conflicts.count) conflicts "
                    + "(\(summary.unresolved) unresolved), \(summary.roundTrips) round trips")
        }
        StandardStream.output.write("\(soup): " + parts.joined(separator: " | ") + "\n")
        for summary in summaries {
            for conflict in summary.conflicts {
                StandardStream.output.write(
                    "  conflict \(conflict.key): base version \(conflict.baseVersion), server version \(conflict.serverVersion)\n")
            }
        }
    }

    /// A time in ms since the epoch as ISO 8601 UTC, or `never`.
    static func time(_ milliseconds: Int64) -> String {
        guard milliseconds > 0 else { return "never" }
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1_000))
    }
}

/// The progress bar of one sync step, fed from the sync's thread.
final class SyncProgressBar: Sendable {
    private let bar: Mutex<ProgressBar?>

    private let label: String

    init(label: String) {
        bar = Mutex(nil)
        self.label = label
    }

    func update(_ progress: SyncProgress) {
        bar.withLock { bar in
            if bar == nil { bar = ProgressBar(label: label, totalEntries: max(progress.total, 1)) }
            bar?.update(entries: progress.done, bytes: 0)
        }
    }

    func finish() { bar.withLock { $0?.finish() } }
}
