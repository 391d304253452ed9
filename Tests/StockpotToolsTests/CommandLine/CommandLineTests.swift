// The `stockpot` command line as a user meets it: help on standard output with status 0,
// usage errors as `Error: ...` plus usage on standard error with status 64.

import Testing

@Suite struct CommandLineTests {
    @Test func rootHelpListsTheSubcommands() throws {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let run = try CommandRun.stockpot(arguments)
            #expect(run.status == 0)
            #expect(run.errors.isEmpty)
            #expect(run.output.hasPrefix("OVERVIEW: "))
            #expect(run.output.contains("USAGE: stockpot <subcommand>"))
            #expect(run.output.contains("\n  exec "))
            #expect(run.output.contains("\n  help "))
        }
    }

    @Test func execHelpHasEverySection() throws {
        let viaHelp = try CommandRun.stockpot(["help", "exec"])
        let viaFlag = try CommandRun.stockpot(["exec", "--help"])
        let afterStore = try CommandRun.stockpot(["exec", "/nonexistent/store", "-h"])
        #expect(viaHelp.status == 0)
        #expect(viaHelp.output == viaFlag.output)
        #expect(viaHelp.output == afterStore.output)
        for section in ["OVERVIEW: ", "USAGE: stockpot exec STORE", "ARGUMENTS:", "OPTIONS:", "EXAMPLES:"] {
            #expect(viaHelp.output.contains(section), "missing \(section)")
        }
        for option in [
            "--durability", "--max-request-bytes", "--max-document-bytes", "--max-soup-name-bytes", "--max-index-path-bytes", "--max-depth", "--help",
        ] {
            #expect(viaHelp.output.contains(option), "missing \(option)")
        }
    }

    @Test(arguments: [
        [], ["frobnicate"], ["help", "frobnicate"], ["exec"], ["exec", "a", "b"], ["exec", "a", "--bogus"],
        ["exec", "a", "--durability", "sometimes"], ["exec", "a", "--max-depth", "0"], ["exec", "a", "--max-depth"],
        ["exec", "a", "--max-request-bytes", "lots"], ["exec", "a", "--max-depth", "3", "--max-depth", "4"],
        ["exec", "a", "--sync-interval-ms", "10"],
    ])
    func usageErrorsExit64WithUsage(_ arguments: [String]) throws {
        let run = try CommandRun.stockpot(arguments)
        #expect(run.status == 64)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("Error: "), "stderr: \(run.errors)")
        #expect(run.errors.contains("USAGE: stockpot"))
    }
}
