// What the results file records about the machine and the software: cores, memory, CPU,
// kernel, the file system and mount options under the benchmark's files, and the versions of
// Swift and of each peer library (from the linked library, or the Debian package).

import CSQLite
import Foundation
import StockpotJSON

/// Facts about this machine, as a JSON object for the results file.
enum MachineFacts {
    /// The machine facts for files under `directory`.
    static func json(directory: String) -> JSONValue {
        let (fileSystem, mountOptions) = mount(of: directory)
        var name = utsname()
        uname(&name)
        let kernel = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return .object(
            JSONObject([
                ("cores", .integer(Int64(ProcessInfo.processInfo.activeProcessorCount))),
                ("memoryBytes", .integer(Int64(ProcessInfo.processInfo.physicalMemory))),
                ("cpu", .string(cpuModel())),
                ("kernel", .string(kernel)),
                ("directory", .string(directory)),
                ("fileSystem", .string(fileSystem)),
                ("mountOptions", .string(mountOptions)),
            ]))
    }

    /// Versions of Swift and the peers, as a JSON object.
    static func versions() -> JSONValue {
        .object(
            JSONObject([
                ("swift", .string(firstLine(run("swift", ["--version"])) ?? "unknown")),
                ("sqlite", .string(String(cString: sqlite3_libversion()))),
                ("rocksdb", .string(debianVersion("librocksdb-dev"))),
                ("leveldb", .string(debianVersion("libleveldb-dev"))),
                ("lmdb", .string(debianVersion("liblmdb-dev"))),
            ]))
    }

    /// The file system type and mount options of the longest mount point holding `path`.
    static func mount(of path: String) -> (String, String) {
        guard let text = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return ("unknown", "") }
        let resolved = (path as NSString).resolvingSymlinksInPath
        var best: (point: String, type: String, options: String)?
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count >= 4 else { continue }
            let point = fields[1]
            let inside = point == "/" || resolved == point || resolved.hasPrefix(point + "/")
            if inside, point.count >= (best?.point.count ?? -1) { best = (point, fields[2], fields[3]) }
        }
        return best.map { ("\($0.type) on \($0.point)", $0.options) } ?? ("unknown", "")
    }

    private static func cpuModel() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        let line = text.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line.flatMap { $0.split(separator: ":", maxSplits: 1).last }.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    }

    private static func debianVersion(_ package: String) -> String {
        let version = run("dpkg-query", ["-W", "-f", "${Version}", package])?.trimmingCharacters(in: .whitespacesAndNewlines)
        return version.flatMap { $0.isEmpty ? nil : $0 } ?? "not installed"
    }

    private static func firstLine(_ text: String?) -> String? {
        text?.split(separator: "\n").first.map(String.init)
    }

    /// The standard output of `program` (found on PATH) with `arguments`, or `nil`.
    static func run(_ program: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}
