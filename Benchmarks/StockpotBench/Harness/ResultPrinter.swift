// Prints results on standard output: aligned text columns, or one compact JSON object per
// line built by hand (no Foundation JSON).

import Foundation  // String(format:)
import StockpotTools

/// Formats ``BenchResult`` lines in the chosen ``OutputFormat``.
struct ResultPrinter {
    let format: OutputFormat

    /// The column header, printed once before the first text line.
    func header() -> String? {
        guard format == .text else { return nil }
        return columns("workload", "stockpot", "baseline", "unit", "ratio", "baseline name")
    }

    /// One line for `result`.
    func line(for result: BenchResult) -> String {
        switch format {
        case .text:
            let text = columns(
                result.workload, figure(result.stockpot), figure(result.baseline),
                result.unit.rawValue, String(format: "%.2fx", result.ratio), result.baselineName)
            return result.note.map { text + "  (" + $0 + ")" } ?? text
        case .json:
            var json = JSONByteBuilder()
            json.beginObject()
            json.member("workload", result.workload)
            json.member("unit", result.unit.rawValue)
            json.key("stockpot")
            json.number(figure(result.stockpot))
            json.key("baseline")
            json.number(figure(result.baseline))
            json.member("baselineName", result.baselineName)
            json.key("ratio")
            json.number(String(format: "%.4f", result.ratio))
            if let target = result.target {
                json.key("target")
                json.number(figure(target))
            }
            if let cpuRatio = result.cpuRatio {
                json.key("cpuRatio")
                json.number(String(format: "%.4f", cpuRatio))
            }
            if !result.extras.isEmpty {
                json.key("extras")
                json.beginObject()
                for (name, value) in result.extras {
                    json.key(name)
                    json.number(figure(value))
                }
                json.endObject()
            }
            json.endObject()
            return String(decoding: json.bytes, as: UTF8.self)
        }
    }

    private func columns(
        _ workload: String, _ stockpot: String, _ baseline: String, _ unit: String,
        _ ratio: String, _ baselineName: String
    ) -> String {
        pad(workload, 21) + leftPad(stockpot, 12) + leftPad(baseline, 12) + "  "
            + pad(unit, 9) + leftPad(ratio, 9) + "  " + baselineName
    }

    /// Three significant decimals at most; finite numbers only (JSON has no NaN).
    private func figure(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        return String(format: value >= 100 ? "%.1f" : "%.3f", value)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private func leftPad(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }
}
