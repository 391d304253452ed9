// The per-row line of a results file: over the row's processes, the median of each side's
// figure, the median ratio with its min and max, the CPU-time ratio the same way where the
// workload reports one, each extra figure's median, the target and whether the median meets it.

import Foundation  // pow, log10
import StockpotJSON

/// Summaries of a row's samples.
enum ReportSummary {
    /// The summary line of `row` from its `samples` (the processes that succeeded).
    static func summary(row: ReportRow, samples: [JSONObject]) -> JSONValue {
        func numbers(_ key: String) -> [Double] { samples.compactMap { $0[key]?.numberValue } }
        let ratios = numbers("ratio"), cpu = numbers("cpuRatio")
        let median = Stopwatch.median(ratios)
        var members: [(String, JSONValue)] = [
            ("kind", .string("summary")), ("row", .string(row.name)), ("workload", .string(row.workload)),
            ("setup", .string(row.variant)), ("family", .string(row.family)),
            ("unit", samples.first?["unit"] ?? .null), ("baselineName", samples.first?["baselineName"] ?? .null),
            ("processes", .integer(Int64(samples.count))),
            ("stockpot", .double(rounded(Stopwatch.median(numbers("stockpot"))))),
            ("baseline", .double(rounded(Stopwatch.median(numbers("baseline"))))),
            ("ratio", .double(rounded(median))),
            ("ratioMin", .double(rounded(ratios.min() ?? 0))), ("ratioMax", .double(rounded(ratios.max() ?? 0))),
        ]
        if !cpu.isEmpty {
            members += [
                ("cpuRatio", .double(rounded(Stopwatch.median(cpu)))),
                ("cpuRatioMin", .double(rounded(cpu.min() ?? 0))), ("cpuRatioMax", .double(rounded(cpu.max() ?? 0))),
            ]
        }
        // Each extra figure's median over the processes that reported it.
        var names: [String] = []
        for sample in samples {
            for name in sample["extras"]?.objectValue?.keys ?? [] where !names.contains(name) { names.append(name) }
        }
        if !names.isEmpty {
            members.append(
                (
                    "extras",
                    .object(
                        JSONObject(
                            names.map { name in
                                (name, .double(rounded(Stopwatch.median(samples.compactMap { $0["extras"]?[name]?.numberValue }))))
                            }))
                ))
        }
        if let target = samples.first?["target"]?.numberValue {
            members += [("target", .double(target)), ("met", .bool(median >= target))]
        }
        return .object(JSONObject(members))
    }

    /// Four significant digits are plenty for figures that move by tens of percent.
    private static func rounded(_ value: Double) -> Double {
        guard value.isFinite, value != 0 else { return 0 }
        let scale = pow(10, 3 - floor(log10(abs(value))))
        return (value * scale).rounded() / scale
    }
}
