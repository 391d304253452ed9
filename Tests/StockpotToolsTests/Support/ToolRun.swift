// Runs the built `stockpot` binary once for the data-command tests: standard input from a
// file (or nothing), standard output and error captured through files, so large outputs
// cannot fill a pipe.

import Foundation
import StockpotTestSupport

/// The outcome of one `stockpot` run with its output as bytes.
struct ToolRun {
    var status: Int32
    var output: [UInt8]
    var errors: String

    var outputText: String { String(decoding: output, as: UTF8.self) }

    /// Runs `stockpot arguments...`, standard input from `inputFile` (else /dev/null), with
    /// this process's environment plus `environment` (STOCKPOT_KEY_FILE only when given there).
    static func stockpot(_ arguments: [String], inputFile: String? = nil, environment: [String: String] = [:]) throws -> ToolRun {
        let scratch = try TemporaryDirectory(prefix: "stockpot-run")
        let outPath = scratch.file("out")
        let errPath = scratch.file("err")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = ExecProcess.binaryURL
        process.arguments = arguments
        var variables = ProcessInfo.processInfo.environment
        variables["STOCKPOT_KEY_FILE"] = nil
        variables.merge(environment) { _, given in given }
        process.environment = variables
        process.standardInput = FileHandle(forReadingAtPath: inputFile ?? "/dev/null")
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        try process.run()
        let deadline = ProcessDeadline(pid: process.processIdentifier, naming: "stockpot " + arguments.joined(separator: " "))
        process.waitUntilExit()
        deadline.cancel()
        return ToolRun(
            status: process.terminationStatus,
            output: [UInt8](FileManager.default.contents(atPath: outPath) ?? Data()),
            errors: String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self))
    }
}

/// A scratch directory for one test, removed with the object.
final class ScratchDirectory {
    private let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "stockpot-tools")
    }

    /// The directory.
    var path: String { directory.path }

    /// A path inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) -> String {
        _ = FileManager.default.createFile(atPath: file(name), contents: Data(bytes))
        return file(name)
    }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        write(name, Array(text.utf8))
    }

    /// The bytes of `name`.
    func read(_ name: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: file(name)) ?? Data())
    }

    /// The names in the directory.
    func names() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted() ?? []
    }
}

/// Seeded JSON Lines documents for the tool tests.
enum ToolCorpus {
    /// `count` documents with a unique `Code`, a `Name` for full-text, a `Size` and a nested
    /// `kind.label` and a 900-byte `note` (so 300 documents pass the 256 KiB after which the engine makes a compression dictionary); document `bigAt` (if any) carries a 1.2 MB value, over the blob threshold.
    static func lines(count: Int, seed: UInt64 = 7, bigAt: Int? = nil) -> String {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
        var text = ""
        for index in 0..<count {
            let name = (0..<3).map { _ in words[Int(next() % UInt64(words.count))] }.joined(separator: " ")
            let note = (0..<150).map { _ in words[Int(next() % UInt64(words.count))] }.joined(separator: " ")
            var line =
                #"{"Code":"C\#(index)","Name":"\#(name)","Size":\#(next() % 1000),"kind":{"label":"k\#(next() % 5)"},"score":\#(Double(next() % 1000) / 8),"note":"\#(note)""#
            if index == bigAt { line += #","blob":""# + String(repeating: "x", count: 1_200_000) + #"""# }
            text += line + "}\n"
        }
        return text
    }

    /// The index options that go with ``lines(count:seed:bigAt:)``.
    static let indexOptions = [
        "--index", "Code:string:unique", "--index", "Name:full_text", "--index", "Size:integer",
        "--index", "kind.label:json1", "--index", "score:floating",
    ]
}
