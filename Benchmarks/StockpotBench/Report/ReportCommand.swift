// `stockpot-bench report`: runs each report row in several separate processes of this
// executable (the sides' order flipped between processes), and writes one JSON-lines results
// file: the run's facts, every process's result, and per row the median ratio with its
// min-max. `stockpot-bench tables` turns that file into the results page's tables.

import Foundation
import StockpotJSON

/// The `report` subcommand.
struct ReportCommand {
    var processes = 5
    var documentCount = 100_000
    var seed = BenchOptions.defaultSeed
    var outputDirectory = "Benchmarks/results"
    var fixtureDirectory: String?
    var timedSeconds = 3.0
    var rows: [ReportRow] = []

    static let usage = """
        USAGE: stockpot-bench report [--processes P] [--docs N] [--seed S] [--out DIR]
                                     [--fixture DIR] [--timed-seconds S] [ROW ...]

        Runs each row (a workload name; `name@tuned` for SQLite tuned at equal memory;
        `storage.<op>@rocksdb`, `@leveldb` or `@lmdb` for a key-value peer; default: the
        report's rows) in P separate processes (default 5), the baseline's side
        first in every other one, and writes DIR/<date>-<commit>.jsonl (-2, -3, ... when a
        run of the commit that day has the name; default DIR: Benchmarks/results). The query
        fixture is loaded once into --fixture DIR (default: a scratch directory, removed
        after) and reused by every process. --timed-seconds is each process's budget of
        timed calls (default 3). Progress on standard error; the results file's path on
        standard output.
        """

    static func parse(_ arguments: [String]) throws(UsageError) -> ReportCommand {
        var command = ReportCommand()
        var remaining = arguments[...]
        func value(_ option: String) throws(UsageError) -> String {
            guard let text = remaining.popFirst() else { throw UsageError(message: "\(option) needs a value") }
            return text
        }
        func positive(_ option: String) throws(UsageError) -> Int {
            let text = try value(option)
            guard let number = Int(text), number > 0 else {
                throw UsageError(message: "\(option) needs a positive integer, got '\(text)'")
            }
            return number
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--processes": command.processes = try positive(argument)
            case "--docs": command.documentCount = try positive(argument)
            case "--seed":
                let text = try value(argument)
                guard let seed = UInt64(text) else { throw UsageError(message: "--seed needs an unsigned integer, got '\(text)'") }
                command.seed = seed
            case "--out": command.outputDirectory = try value(argument)
            case "--fixture": command.fixtureDirectory = try value(argument)
            case "--timed-seconds":
                let text = try value(argument)
                guard let seconds = Double(text), seconds > 0 else {
                    throw UsageError(message: "--timed-seconds needs a positive number, got '\(text)'")
                }
                command.timedSeconds = seconds
            default:
                guard !argument.hasPrefix("-") else { throw UsageError(message: "unknown option '\(argument)'") }
                guard let row = ReportRow.named(argument) else {
                    throw UsageError(message: "unknown row '\(argument)' (a workload from --list, with @tuned or @rocksdb, @leveldb, @lmdb)")
                }
                command.rows.append(row)
            }
        }
        if command.rows.isEmpty { command.rows = ReportRow.defaults }
        return command
    }

    /// Runs the report; returns the process's exit status.
    func run() -> Int32 {
        // The results are named by the commit checked out when the run starts (the binary's).
        let commit = Self.commit()
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let scratch = fixtureDirectory == nil ? try? ScratchDirectory(label: "report") : nil
        let fixture = fixtureDirectory ?? scratch.map { $0.file("fixture") } ?? "/tmp/stockpot-bench-report-fixture"
        defer { scratch?.remove() }
        let common = ["--docs", "\(documentCount)", "--seed", "\(seed)", "--keep-fixture", fixture]
        let log = fixture + ".log"
        // Only the read, mixed and durable rows use the query fixture; the ingest, storage and
        // encrypted-against-plain rows build their own stores. Rows that all run against
        // SQLCipher get a fixture loaded under it (an encrypted store, a SQLCipher file).
        let fixtureRows = rows.filter { !["Ingest", "Storage engine", "Encryption at rest"].contains($0.family) }
        if !fixtureRows.isEmpty {
            let setup = fixtureRows.allSatisfy { $0.setup == .sqlcipher } ? ["--sqlite", "sqlcipher"] : []
            progress("loading the query fixture (\(documentCount) accounts) into \(fixture)")
            guard runChild(executable, ["--prepare-fixture"] + common + setup, log: log).status == 0 else {
                progress("the query fixture failed to load")
                return 1
            }
        }

        let started = Date()
        let path = Self.freePath(in: outputDirectory, date: started, commit: commit)
        var lines: [JSONValue] = [runFacts(directory: fixture, started: started, commit: commit)]
        var samples: [String: [JSONObject]] = [:]
        var failures = 0
        for process in 0..<processes {
            for row in rows {
                var arguments = [row.workload] + common + ["--format", "json", "--timed-seconds", "\(timedSeconds)"]
                if process % 2 == 1 { arguments.append("--baseline-first") }
                arguments += row.variantArguments + row.arguments
                let begin = Date()
                let child = runChild(executable, arguments, log: log)
                let seconds = Date().timeIntervalSince(begin)
                let line = child.output.split(separator: "\n").last.map { Array($0.utf8) }
                guard child.status == 0, let line, case .object(var result)? = try? JSONReader.parse(line) else {
                    failures += 1
                    let error = child.error.split(separator: "\n").last { $0.contains("Error") }.map(String.init) ?? "exit \(child.status)"
                    progress("process \(process + 1)/\(processes) \(row.name): FAILED: \(error)")
                    lines.append(
                        .object(
                            JSONObject([
                                ("kind", .string("failure")), ("row", .string(row.name)), ("process", .integer(Int64(process))),
                                ("error", .string(error)),
                            ])))
                    continue
                }
                result["kind"] = .string("sample")
                result["row"] = .string(row.name)
                result["setup"] = .string(row.variant)
                result["process"] = .integer(Int64(process))
                result["baselineFirst"] = .bool(process % 2 == 1)
                result["processSeconds"] = .double((seconds * 10).rounded() / 10)
                samples[row.name, default: []].append(result)
                lines.append(.object(result))
                progress(
                    String(
                        format: "process %d/%d %@: %.2fx (%.0f s)", process + 1, processes, row.name,
                        result["ratio"]?.numberValue ?? 0, seconds))
            }
        }
        for row in rows {
            if let rowSamples = samples[row.name] { lines.append(ReportSummary.summary(row: row, samples: rowSamples)) }
        }

        do {
            try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
            var bytes = [UInt8]()
            for line in lines {
                bytes += JSONWriter.write(line)
                bytes.append(UInt8(ascii: "\n"))
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            progress("cannot write \(path): \(error)")
            return 1
        }
        print(path)
        progress("\(failures) failed processes; results in \(path)")
        return failures == 0 ? 0 : 1
    }

    /// The first line of the results file: when, which commit, how, on what.
    private func runFacts(directory: String, started: Date, commit: String) -> JSONValue {
        .object(
            JSONObject([
                ("kind", .string("run")),
                ("date", .string(ISO8601DateFormatter().string(from: started))),
                ("commit", .string(commit)),
                ("documents", .integer(Int64(documentCount))),
                ("seed", .integer(Int64(seed))),
                ("processes", .integer(Int64(processes))),
                ("timedSeconds", .double(timedSeconds)),
                ("machine", MachineFacts.json(directory: NSTemporaryDirectory())),
                ("versions", MachineFacts.versions()),
            ]))
    }

    /// `YYYY-MM-DD-<short commit>.jsonl`, or with `-2`, `-3`, ... before `.jsonl` for another
    /// run of the same commit on the same day.
    static func fileName(date: Date, commit: String, run: Int = 1) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date) + "-" + commit + (run > 1 ? "-\(run)" : "") + ".jsonl"
    }

    /// The path of this run's results in `directory`: the first ``fileName(date:commit:run:)``
    /// that names no file there yet, so that a second report of one commit on one day never
    /// overwrites the first.
    static func freePath(in directory: String, date: Date, commit: String) -> String {
        var run = 1
        while FileManager.default.fileExists(atPath: directory + "/" + fileName(date: date, commit: commit, run: run)) { run += 1 }
        return directory + "/" + fileName(date: date, commit: commit, run: run)
    }

    /// The checked-out commit, short, with `-dirty` when what the benchmark is built from (the
    /// package manifest, Sources, Benchmarks) has uncommitted changes.
    static func commit() -> String {
        let hash = MachineFacts.run("git", ["rev-parse", "--short=12", "HEAD"])?.trimmingCharacters(in: .whitespacesAndNewlines)
        let status =
            MachineFacts.run(
                "git",
                [
                    "status", "--porcelain", "--untracked-files=no", "--", "Package.swift", "Sources", "Benchmarks/StockpotBench",
                    "Benchmarks/CSQLite", "Benchmarks/CPeers",
                ]) ?? ""
        return (hash ?? "unknown") + (status.isEmpty ? "" : "-dirty")
    }

    /// Runs `executable` with `arguments`; its standard error goes to a log file beside the
    /// fixture (read back for the failure message), its standard output is returned.
    private func runChild(_ executable: String, _ arguments: [String], log: String) -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let errorFile = FileHandle(forWritingAtPath: log)
        process.standardError = errorFile ?? FileHandle.nullDevice
        do { try process.run() } catch { return (127, "", "\(error)") }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errorFile?.close()
        let errorText = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), errorText)
    }

    private func progress(_ message: String) {
        FileHandle.standardError.write(Data(("report: " + message + "\n").utf8))
    }
}
