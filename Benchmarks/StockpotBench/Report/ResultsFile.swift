// One results file as `stockpot-bench tables` reads it: the run's facts (its first line), the
// per-row summaries and the failed processes, and the sentence naming the machine and software
// it ran on (the results page groups tables by that sentence).

import Foundation
import StockpotJSON

/// A parsed `Benchmarks/results/<date>-<commit>.jsonl` file.
struct ResultsFile {
    /// The file's name without its directory or `.jsonl`: how the page names the run.
    let name: String
    let run: JSONObject?
    let summaries: [JSONObject]
    let failures: [JSONObject]

    /// Reads and parses the file at `path`.
    static func load(_ path: String) throws -> ResultsFile {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = try text.split(separator: "\n").map { line -> JSONObject in
            guard case .object(let object) = try JSONReader.parse(Array(line.utf8)) else {
                throw BenchFailure("\(path): a line is not a JSON object")
            }
            return object
        }
        func kind(_ name: String) -> [JSONObject] { lines.filter { $0["kind"]?.stringValue == name } }
        let base = (path as NSString).lastPathComponent
        return ResultsFile(
            name: base.hasSuffix(".jsonl") ? String(base.dropLast(".jsonl".count)) : base,
            run: kind("run").first, summaries: kind("summary"), failures: kind("failure"))
    }

    /// How many accounts the run loaded (the report's default when the file does not say).
    var documents: Int64 { run?["documents"]?.integerValue ?? 100_000 }

    /// The CPU model, the machine's short name.
    var cpu: String { text(run?["machine"]?.objectValue, "cpu") }

    /// The machine and software, one sentence; two files with the same sentence ran on the
    /// same machine with the same versions.
    var environment: String {
        let machine = run?["machine"]?.objectValue, versions = run?["versions"]?.objectValue
        let memory = (machine?["memoryBytes"]?.numberValue ?? 0) / 1_073_741_824
        return "\(text(machine, "cpu")), \(text(machine, "cores")) cores, " + String(format: "%.1f GiB", memory)
            + ", Linux \(text(machine, "kernel")), \(text(machine, "fileSystem")) (`\(text(machine, "mountOptions"))`)."
            + " Versions: \(text(versions, "swift")); SQLite \(text(versions, "sqlite")); RocksDB \(text(versions, "rocksdb")),"
            + " LevelDB \(text(versions, "leveldb")), LMDB \(text(versions, "lmdb")) (Debian packages)."
    }

    /// A member of the run line (or of an object in it) as text, `?` when absent.
    func text(_ object: JSONObject?, _ key: String) -> String {
        if let text = object?[key]?.stringValue { return text }
        guard let number = object?[key]?.numberValue else { return "?" }
        return number == number.rounded() ? String(format: "%.0f", number) : String(format: "%g", number)
    }
}
