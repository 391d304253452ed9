// Runs a built binary of the package (`stockpot`, `SyncDevice`) for the sync tests: input
// from text, output and errors captured through files, waited for with waitpid.

import Foundation
import StockpotTestSupport

/// The outcome of one run of a built binary.
struct BinaryRun {
    var status: Int32
    var output: String
    var errors: String

    /// Where the build put the package's executables: next to the test bundle.
    static func binary(_ name: String) -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Runs `name arguments...` with `input` on standard input.
    static func run(_ name: String, _ arguments: [String], input: String = "") throws -> BinaryRun {
        let scratch = try TemporaryDirectory(prefix: "stockpot-sync-run")
        try input.write(toFile: scratch.file("in"), atomically: false, encoding: .utf8)
        let status = try ChildProcess.run(
            [binary(name)] + arguments, input: scratch.file("in"), output: scratch.file("out"), errors: scratch.file("err"))
        return BinaryRun(
            status: status, output: (try? String(contentsOfFile: scratch.file("out"), encoding: .utf8)) ?? "",
            errors: (try? String(contentsOfFile: scratch.file("err"), encoding: .utf8)) ?? "")
    }

    /// Runs `stockpot arguments...`.
    static func stockpot(_ arguments: [String], input: String = "") throws -> BinaryRun {
        try run("stockpot", arguments, input: input)
    }
}
