// The results page's generated part: a table of the runs, then for each machine its
// environment and one table per family (rows from several runs of that machine merged, each row
// naming its run), then that machine's failed processes. Tables never mix machines, so no ratio
// on the page is read across them.

import Foundation  // String(format:)
import StockpotJSON

/// Markdown for the results page from parsed results files.
enum ResultsMarkdown {
    /// The generated part of the page for `files`, in their order.
    static func render(_ files: [ResultsFile]) -> String {
        var out = runs(files)
        var environments: [String] = []
        for file in files where !environments.contains(file.environment) { environments.append(file.environment) }
        for environment in environments {
            let machineFiles = files.filter { $0.environment == environment }
            out += "\n### On the \(machineFiles[0].cpu) machine\n\(environment)\n"
            var rows: [(title: String, file: ResultsFile, summary: JSONObject)] = []
            for file in machineFiles {
                rows += file.summaries.map { (title(of: $0, in: file), file, $0) }
            }
            var titles: [String] = []
            for row in rows where !titles.contains(row.title) { titles.append(row.title) }
            for title in titles {
                out += "\n#### \(title)\n" + table(rows.filter { $0.title == title }.map { ($0.file, $0.summary) })
            }
            out += failures(machineFiles)
        }
        return out
    }

    /// The runs the page draws on: one line per results file.
    private static func runs(_ files: [ResultsFile]) -> String {
        var out = "| run (`Benchmarks/results/<run>.jsonl`) | machine | started | accounts | processes a row | timed seconds of a read row |\n"
        out += "|---|---|---|---:|---:|---:|\n"
        for file in files {
            out +=
                "| `\(file.name)` | \(file.cpu) | \(file.text(file.run, "date")) | \(grouped(file.documents))"
                + " | \(file.text(file.run, "processes")) | \(file.text(file.run, "timedSeconds")) s |\n"
        }
        return out
    }

    /// The table a row goes in: a run over another corpus size than the default is one table
    /// of its own, named by the size; rows against SQLCipher compare two encrypted stores, so
    /// they stay apart from the rows against plain SQLite; the others go by family.
    private static func title(of summary: JSONObject, in file: ResultsFile) -> String {
        if file.documents != 100_000 { return "At \(grouped(file.documents)) entries" }
        if summary["setup"]?.stringValue == SQLiteSetup.sqlcipher.rawValue { return "Against SmartStore's SQLCipher (both sides encrypted)" }
        return summary["family"]?.stringValue ?? "Other"
    }

    /// One table: a line per row, the columns a row family lacks left out.
    private static func table(_ rows: [(file: ResultsFile, summary: JSONObject)]) -> String {
        let hasCPU = rows.contains { $0.summary["cpuRatio"] != nil }
        let space = rows.contains { $0.summary["extras"]?["stockpotSpaceAmplification"] != nil }
        let write = rows.contains { $0.summary["extras"]?["stockpotWriteAmplification"] != nil }
        var out =
            "| row | run | Stockpot | baseline | ratio, median [min-max] |" + (hasCPU ? " CPU ratio [min-max] |" : "")
            + (space ? " space amp. |" : "") + (write ? " write amp. |" : "") + " target | met |\n"
        out += "|---|---|---:|---:|---|" + (hasCPU ? "---|" : "") + (space ? "---|" : "") + (write ? "---|" : "") + "---|---|\n"
        for (file, row) in rows {
            let unit = row["unit"]?.stringValue ?? ""
            let ratio =
                "**\(Self.ratio(row["ratio"]?.numberValue))x** [\(Self.ratio(row["ratioMin"]?.numberValue))-"
                + "\(Self.ratio(row["ratioMax"]?.numberValue))]"
            let cpu =
                row["cpuRatio"]?.numberValue.map {
                    String(format: "%.2fx [%.2f-%.2f]", $0, row["cpuRatioMin"]?.numberValue ?? 0, row["cpuRatioMax"]?.numberValue ?? 0)
                } ?? ""
            let target = row["target"]?.numberValue.map { String(format: ">= %gx", $0) } ?? ""
            let met: String
            switch row["met"] {
            case .bool(true)?: met = "yes"
            case .bool(false)?: met = "**no**"
            default: met = ""
            }
            out +=
                "| `\(row["row"]?.stringValue ?? "?")` | `\(file.name)` | \(figure(row["stockpot"]?.numberValue, unit))"
                + " | \(figure(row["baseline"]?.numberValue, unit)) | \(ratio) |" + (hasCPU ? " \(cpu) |" : "")
                + (space ? " \(spaceAmplification(row)) |" : "") + (write ? " \(pair(row, "WriteAmplification")) |" : "")
                + " \(target) | \(met) |\n"
        }
        return out
    }

    /// The failed processes of `files`, one line per row, run and error, naming the processes.
    private static func failures(_ files: [ResultsFile]) -> String {
        var groups: [(row: String, run: String, error: String, processes: [Int64])] = []
        for file in files {
            for failure in file.failures {
                let row = failure["row"]?.stringValue ?? "?", error = failure["error"]?.stringValue ?? ""
                let process = failure["process"]?.integerValue ?? -1
                if let index = groups.firstIndex(where: { $0.row == row && $0.run == file.name && $0.error == error }) {
                    groups[index].processes.append(process)
                } else {
                    groups.append((row, file.name, error, [process]))
                }
            }
        }
        guard !groups.isEmpty else { return "" }
        return "\nFailed processes (not in the medians):\n"
            + groups.map { group in
                let processes = group.processes.map(String.init).joined(separator: ", ")
                return "- `\(group.row)` (run `\(group.run)`), process\(group.processes.count == 1 ? "" : "es") \(processes): \(group.error)\n"
            }.joined()
    }

    /// A ratio with three significant digits (two below 0.1), no decimals from 100 up.
    private static func ratio(_ value: Double?) -> String {
        let value = value ?? 0
        let format = value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : value >= 0.1 ? "%.2f" : "%.2g"
        return String(format: format, value)
    }

    /// "Stockpot / baseline" of the extra figure `name` (`stockpot<name>`, `baseline<name>`).
    private static func pair(_ row: JSONObject, _ name: String) -> String {
        let extras = row["extras"]
        guard let ours = extras?["stockpot" + name]?.numberValue, let theirs = extras?["baseline" + name]?.numberValue else {
            return ""
        }
        return String(format: "%.2f / %.2f", ours, theirs)
    }

    /// Space amplification after the row's work, "Stockpot / baseline", preceded by the
    /// figures before compaction where the row compacts.
    private static func spaceAmplification(_ row: JSONObject) -> String {
        let before = pair(row, "SpaceAmplificationBeforeCompact")
        return (before.isEmpty ? "" : before + " before compaction, ") + pair(row, "SpaceAmplification")
    }

    /// `1,000,000`.
    private static func grouped(_ value: Int64) -> String {
        let digits = Array(String(value))
        var text = ""
        for (position, digit) in digits.enumerated() {
            if position > 0, (digits.count - position) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }

    /// A side's median figure in its unit; microseconds from 10,000 up as milliseconds.
    private static func figure(_ value: Double?, _ unit: String) -> String {
        guard var value else { return "" }
        var unit = unit
        if unit == BenchUnit.microsecondsPerOperation.rawValue, value >= 10_000 { (value, unit) = (value / 1000, "ms/op") }
        let digits = value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.2f"
        return String(format: digits, value) + " " + unit
    }
}
