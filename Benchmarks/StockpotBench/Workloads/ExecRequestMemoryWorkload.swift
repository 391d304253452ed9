// exec.request-memory: peak RSS (wait4's ru_maxrss) of a `stockpot exec` process serving one
// upsertSoupEntries request of 1, 4 or 16 MiB (documents of about 250 bytes), or the entry
// limit's worst case (100,000 `{}`): the factor docs/cli.md states.

import Foundation
import StockpotJSON

struct ExecRequestMemoryWorkload: Workload {
    let name = "exec.request-memory"
    let summary = "peak RSS of one exec upsertSoupEntries request of 1, 4 and 16 MiB (MB), vs the request's size"

    func run(in context: BenchContext) throws -> BenchResult {
        let directory = try ScratchDirectory(label: "exec-memory")
        defer { directory.remove() }
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("stockpot").path
        var figures: [(label: String, request: Int, peak: Int)] = []
        for mebibytes in [1, 4, 16] {
            let entries = Self.documents(totalBytes: mebibytes << 20)
            figures.append(try Self.peak(binary, directory, label: "\(mebibytes) MiB", entries: entries))
        }
        let empty = [[UInt8]](repeating: Array("{}".utf8), count: 100_000)
        figures.append(try Self.peak(binary, directory, label: "100,000 {}", entries: empty))
        for figure in figures {
            context.progress(
                String(
                    format: "exec.request-memory: %@ request (%.1f MB): peak RSS %.1f MB", figure.label, Double(figure.request) / 1e6,
                    Double(figure.peak) / 1e6))
        }
        let largest = figures[2]
        let note = figures.map { String(format: "%@ %.0f MB (%.1fx)", $0.label, Double($0.peak) / 1e6, Double($0.peak) / Double($0.request)) }
            .joined(separator: ", ")
        var result = BenchResult(
            workload: name, unit: .megabytes, stockpot: Double(largest.peak) / 1e6, baseline: Double(largest.request) / 1e6,
            baselineName: "the 16 MiB request", note: "peak RSS per request: " + note)
        result.extras = [
            ("peakMB1MiB", Double(figures[0].peak) / 1e6), ("peakMB4MiB", Double(figures[1].peak) / 1e6),
            ("peakMB100000EmptyEntries", Double(figures[3].peak) / 1e6),
        ]
        return result
    }

    /// Documents of about 250 bytes (fixed, no randomness), `totalBytes` of them.
    static func documents(totalBytes: Int) -> [[UInt8]] {
        var documents: [[UInt8]] = []
        var total = 0
        while total < totalBytes {
            let number = documents.count
            let name = String(repeating: "n", count: 40 + number * 7_919 % 40)
            let text =
                #"{"Id":"A\#(number)","Name":"\#(name)","Industry":"Retail","Employees":\#(number % 5000),"Note":"a short note for the account","Description":"an account made for the request memory benchmark, about 250 bytes"}"#
            documents.append(Array(text.utf8))
            total += text.utf8.count + 1
        }
        return documents
    }

    /// Runs a fresh `stockpot exec` on a new store with a soup and one upsert of `entries`;
    /// its peak resident bytes and the request line's size.
    static func peak(_ binary: String, _ directory: ScratchDirectory, label: String, entries: [[UInt8]]) throws -> (
        label: String, request: Int, peak: Int
    ) {
        var request = Array(#"{"id":1,"op":"upsertSoupEntries","soupName":"accounts","entries":["#.utf8)
        for (i, entry) in entries.enumerated() {
            if i > 0 { request.append(UInt8(ascii: ",")) }
            request.append(contentsOf: entry)
        }
        request.append(contentsOf: Array("]}\n".utf8))
        let register =
            Array(
                #"{"id":0,"op":"registerSoup","soupName":"accounts","indexSpecs":[{"path":"Id","type":"string"},{"path":"Employees","type":"integer"}]}"#
                    .utf8) + [0x0A]
        let input = directory.file("request-\(entries.count).jsonl")
        _ = FileManager.default.createFile(atPath: input, contents: Data(register + request))
        let store = directory.file("store-\(entries.count)")
        let peak = try runMeasured(
            binary, ["exec", store, "--durability", "none"], input: input, output: directory.file("response-\(entries.count)"))
        return (label, request.count, peak)
    }

    /// Runs `binary` with `arguments`, standard input from `input`, standard output to
    /// `output`; the child's peak resident bytes.
    static func runMeasured(_ binary: String, _ arguments: [String], input: String, output: String) throws -> Int {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary, &actions, nil, argv, environ)
        guard spawned == 0 else { throw BenchFailure("cannot run \(binary): error \(spawned)") }
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, 0, &usage) == pid, status == 0 else {
            throw BenchFailure("\(binary) \(arguments.joined(separator: " ")) failed (status \(status))")
        }
        let response = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard response.contains(#""id":1,"ok":true"#) else { throw BenchFailure("the request failed: \(response.prefix(300))") }
        return Int(usage.ru_maxrss) * 1024
    }
}
