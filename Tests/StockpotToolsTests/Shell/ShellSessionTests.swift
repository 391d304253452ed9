// `stockpot shell` fed from a pipe: a scripted session's exact standard output (dot-commands,
// a multi-line statement, ';' inside literals and braces, an error that does not end the
// session, .mode switching), the exit status rules, .quit, the end of input, .dump.

import Foundation
import Testing

@Suite struct ShellSessionTests {
    static let accounts = #"""
        {"Name":"Acme Tools","Size":120}
        {"Name":"Bolt; Co","Size":8}
        {"Name":"Cogs, Ltd","Size":40}

        """#

    /// Runs `stockpot shell store` with `script` on standard input (a file, not a terminal).
    static func shell(_ store: String, _ script: String, in scratch: ScratchDirectory, options: [String] = []) throws -> ToolRun {
        let input = scratch.write("script-\(UUID().uuidString).sql", script)
        return try ToolRun.stockpot(["shell", store] + options, inputFile: input)
    }

    @Test func scriptedSessionPrintsTheExpectedOutput() throws {
        let scratch = try ScratchDirectory()
        let data = scratch.write("accounts.jsonl", Self.accounts)
        let script = """
            .register accounts Name:string Size:integer:unique
            .import \(data) accounts
            .soups
            .indexes accounts
            -- a statement over three lines
            SELECT {accounts:Name},
                   {accounts:Size}
              FROM {accounts} ORDER BY {accounts:Size};
            SELECT 'a;b', {accounts:Size} FROM {accounts} WHERE {accounts:Name} = 'Bolt; Co';
            SELECT {accounts:we;ird} FROM {accounts} LIMIT 1;
            SELECT nope(1);
            .mode jsonl
            SELECT {accounts:Name} FROM {accounts} ORDER BY {accounts:Size} DESC; SELECT count(*) FROM {accounts};
            .mode csv
            SELECT {accounts:Name}, {accounts:Size} FROM {accounts} WHERE {accounts:Size} > 10 ORDER BY {accounts:Size}
            ;
            .mode json
            SELECT {accounts:Size} FROM {accounts} WHERE {accounts:Size} > 100;
            .mode

            """
        let run = try Self.shell(scratch.file("store"), script, in: scratch)
        let expected = """
            accounts
            Name:string
            Size:integer:unique
            +------------+-----+
            | Bolt; Co   |   8 |
            | Cogs, Ltd  |  40 |
            | Acme Tools | 120 |
            +------------+-----+
            +-----+---+
            | a;b | 8 |
            +-----+---+
            +------+
            | NULL |
            +------+
            ["Acme Tools"]
            ["Cogs, Ltd"]
            ["Bolt; Co"]
            [3]
            "Cogs, Ltd",40\r
            Acme Tools,120\r
            [
            [120]
            ]
            current output mode: json

            """
        #expect(run.outputText == expected)
        #expect(run.errors.contains("Imported 3 entries"), "\(run.errors)")
        let errorLines = run.errors.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(errorLines == ["Error: invalid_query: no such function: nope (at character 7)."])
        #expect(run.status == 1, "a failed statement from a pipe exits 1")
    }

    @Test func cleanSessionExits0AndQuitStopsReading() throws {
        let scratch = try ScratchDirectory()
        let run = try Self.shell(scratch.file("store"), "SELECT 1 + 1;\n.quit\nSELECT nope(2);\n", in: scratch, options: ["--mode", "jsonl"])
        #expect(run.outputText == "[2]\n")
        #expect(run.errors.isEmpty, "\(run.errors)")
        #expect(run.status == 0)
    }

    @Test func theEndOfInputRunsALastStatementAndReportsAnOpenQuote() throws {
        let scratch = try ScratchDirectory()
        let store = scratch.file("store")
        let last = try Self.shell(store, ".mode jsonl\nSELECT 'no semicolon'\n-- trailing comment", in: scratch)
        #expect(last.outputText == "[\"no semicolon\"]\n")
        #expect(last.status == 0, "\(last.errors)")

        let open = try Self.shell(store, ".mode jsonl\nSELECT 1;\nSELECT 'open;\n.quit\n", in: scratch)
        #expect(open.outputText == "[1]\n", "the quoted '.quit' line is statement text, not a command")
        #expect(open.errors.hasPrefix("Error: incomplete statement at the end of the input"), "\(open.errors)")
        #expect(open.status == 1)
    }

    @Test func dotCommandErrorsAreReportedAndTheSessionGoesOn() throws {
        let scratch = try ScratchDirectory()
        let script = """
            .bogus
            .indexes
            .indexes nope
            .mode xml
            .import \(scratch.file("missing.jsonl")) nope
            .register things Name:text
            .register things Name:string
            .import \(scratch.file("missing.jsonl")) things
            .timer on
            .mode jsonl
            SELECT 'still here';

            """
        let run = try Self.shell(scratch.file("store"), script, in: scratch)
        #expect(run.outputText == "[\"still here\"]\n")
        let errorLines = run.errors.split(separator: "\n").filter { $0.hasPrefix("Error: ") }.map(String.init)
        #expect(errorLines.count == 7, "\(run.errors)")
        #expect(errorLines[0] == "Error: unknown command '.bogus'; .help lists the commands")
        #expect(errorLines[1] == "Error: usage: .indexes SOUP")
        #expect(errorLines[2].hasPrefix("Error: soup_not_found: "))
        #expect(errorLines[3] == "Error: unknown mode 'xml'; the modes are table|json|jsonl|csv")
        #expect(errorLines[4].hasPrefix("Error: there is no soup \"nope\""))
        #expect(errorLines[5].hasPrefix("Error: 'Name:text' is not an index spec"))
        #expect(errorLines[6].hasPrefix("Error: cannot open \(scratch.file("missing.jsonl"))"))
        #expect(run.errors.contains("Run Time: "))
        #expect(run.status == 1)
    }

    @Test func dumpWritesWhatTheDumpCommandWrites() throws {
        let scratch = try ScratchDirectory()
        let store = scratch.file("store")
        let data = scratch.write("accounts.jsonl", Self.accounts)
        let script = """
            .register accounts Name:string Size:integer
            .import \(data) accounts
            .dump \(scratch.file("shell.dump"))
            .dump

            """
        let run = try Self.shell(store, script, in: scratch)
        #expect(run.status == 0, "\(run.errors)")
        let reference = try ToolRun.stockpot(["dump", store])
        #expect(reference.status == 0)
        #expect(!reference.output.isEmpty)
        #expect(run.output == reference.output)
        #expect(scratch.read("shell.dump") == reference.output)
    }

    @Test func helpListsEveryDotCommand() throws {
        let scratch = try ScratchDirectory()
        let run = try Self.shell(scratch.file("store"), ".help\n", in: scratch)
        #expect(run.status == 0)
        for command in [".dump", ".exit", ".help", ".import", ".indexes", ".mode", ".quit", ".register", ".soups", ".stats", ".timer"] {
            #expect(run.outputText.contains("\n\(command) ") || run.outputText.hasPrefix("\(command) "), "\(command)")
        }
        let stats = try Self.shell(scratch.file("store"), ".register s k:string\n.stats\n", in: scratch)
        #expect(stats.outputText.hasPrefix("soups                 1\n"), "\(stats.outputText)")
    }

    @Test func readOutputOnceHeadersSchemaAndBail() throws {
        let scratch = try ScratchDirectory()
        let store = scratch.file("store")
        let data = scratch.write("accounts.jsonl", Self.accounts)
        // A script that .read runs: its statement left without ';' runs at its end; it reads
        // itself no deeper than the limit.
        let included = scratch.write("included.sql", "SELECT count(*) AS n FROM {accounts}\n")
        let selfReading = scratch.file("self.sql")
        scratch.write("self.sql", ".read \(selfReading)\n")
        let rows = scratch.file("rows.csv")
        let once = scratch.file("once.jsonl")
        let script = """
            .register accounts Name:string 'Size:integer:unique'
            .import \(data) accounts
            .schema
            .headers on
            .mode csv
            .read \(included)
            .output \(rows)
            SELECT {accounts:Name} FROM {accounts} ORDER BY {accounts:Size};
            .output
            .headers off
            .mode jsonl
            .once \(once)
            SELECT {accounts:Size} FROM {accounts} ORDER BY {accounts:Size};
            SELECT 'back';
            .read \(selfReading)
            .bail on
            SELECT nope();
            SELECT 'never';

            """
        let run = try Self.shell(store, script, in: scratch)
        #expect(run.outputText == ".register accounts Name:string Size:integer:unique\nn\r\n3\r\n[\"back\"]\n", "\(run.outputText)")
        #expect(scratch.read("rows.csv") == Array("{accounts:Name}\r\nBolt; Co\r\n\"Cogs, Ltd\"\r\nAcme Tools\r\n".utf8))
        #expect(scratch.read("once.jsonl") == Array("[8]\n[40]\n[120]\n".utf8))
        let errorLines = run.errors.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(errorLines.count == 2, "\(run.errors)")
        #expect(errorLines.first?.contains("more than 16 deep") == true, "\(run.errors)")
        #expect(errorLines.last?.contains("no such function: nope") == true, "\(run.errors)")
        #expect(run.status == 1, "a failure under .bail exits 1")
    }
}
