// The hand-written argument parser in process: options with a space or `=`, flags,
// positionals, `--`, and each usage error; and how `exec` reads its options.

import Stockpot
import StockpotJSON
import Testing
@testable import StockpotTools

@Suite struct ArgumentScannerTests {
    @Test func takesOptionsFlagsAndPositionals() throws {
        var scanner = ArgumentScanner(["in", "--depth=3", "--quiet", "--name", "-x", "out", "--", "--literal"])
        #expect(try scanner.takeOption("--name") == "-x")
        #expect(try scanner.takeInteger("--depth", in: 1...10) == 3)
        #expect(try scanner.takeFlag("--quiet"))
        #expect(try scanner.takeFlag("--loud") == false)
        #expect(try scanner.takeOption("--absent") == nil)
        #expect(try scanner.takePositional("A") == "in")
        #expect(try scanner.takePositional("B") == "out")
        #expect(try scanner.takePositional("C") == "--literal")
        #expect(scanner.takeOptionalPositional() == nil)
        try scanner.finish()
    }

    private func usageError(_ body: (inout ArgumentScanner) throws -> Void, _ tokens: [String]) -> String? {
        var scanner = ArgumentScanner(tokens)
        do {
            try body(&scanner)
            try scanner.finish()
            return nil
        } catch {
            return (error as? UsageError)?.message ?? "not a UsageError: \(error)"
        }
    }

    @Test func reportsEachUsageError() {
        #expect(usageError({ _ = try $0.takeOption("--n") }, ["--n"])?.contains("needs a value") == true)
        #expect(usageError({ _ = try $0.takeOption("--n") }, ["--n", "1", "--n=2"])?.contains("more than once") == true)
        #expect(usageError({ _ = try $0.takeFlag("--f") }, ["--f=yes"])?.contains("takes no value") == true)
        #expect(usageError({ _ = try $0.takeInteger("--n", in: 1...5) }, ["--n", "6"])?.contains("from 1 to 5") == true)
        #expect(usageError({ _ = try $0.takePositional("STORE") }, [])?.contains("STORE") == true)
        #expect(usageError({ _ in }, ["--what"]) == "Unknown option '--what'.")
        #expect(usageError({ _ in }, ["extra"]) == "Unexpected argument 'extra'.")
        #expect(usageError({ _ = try $0.takeOption("--n") }, ["--n", "--", "x"])?.contains("needs a value") == true)
    }

    @Test func helpFlagIsFoundBeforeDoubleDashOnly() {
        var scanner = ArgumentScanner(["a", "-h"])
        let found = scanner.takeHelpFlag()
        #expect(found)
        #expect(scanner.takeOptionalPositional() == "a")
        var literal = ArgumentScanner(["--", "--help"])
        let foundLiteral = literal.takeHelpFlag()
        #expect(foundLiteral == false)
    }

    @Test func execReadsItsOptions() throws {
        guard
            case .run(let command) = StockpotCommand.parse([
                "exec", "--max-depth", "9", "/tmp/store", "--durability=interval", "--sync-interval-ms", "250",
                "--max-request-bytes", "1000", "--max-document-bytes", "500", "--max-soup-name-bytes", "10",
                "--max-index-path-bytes", "20", "--blob-threshold-bytes", "300",
            ])
        else {
            Issue.record("exec did not parse")
            return
        }
        let exec = try #require(command as? ExecCommand)
        #expect(exec.directory == "/tmp/store")
        #expect(exec.jsonLimits == JSONLimits(maxDepth: 9, maxInputBytes: 1000, maxStringBytes: 1000))
        #expect(exec.storeOptions.limits.documentBytes == 500)
        #expect(exec.storeOptions.limits.soupNameBytes == 10)
        #expect(exec.storeOptions.limits.indexPathBytes == 20)
        #expect(exec.storeOptions.blobThreshold == 300)
        guard case .interval(let milliseconds) = exec.storeOptions.durability else {
            Issue.record("durability is not interval")
            return
        }
        #expect(milliseconds == 250)
    }

    @Test func execDefaultsAreTheProtocolLimits() throws {
        guard case .run(let command) = StockpotCommand.parse(["exec", "s"]) else {
            Issue.record("exec did not parse")
            return
        }
        let exec = try #require(command as? ExecCommand)
        #expect(exec.jsonLimits == JSONLimits(maxDepth: 512, maxInputBytes: 64 << 20, maxStringBytes: 64 << 20))
        #expect(exec.storeOptions.limits == StoreLimits())
    }
}
