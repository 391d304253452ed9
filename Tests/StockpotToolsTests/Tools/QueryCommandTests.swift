// `stockpot query` end to end: the exact output of each format for a small store, `--arg`
// values read as JSON or else as text, exit statuses 65 (refused statements), 1, 64, and a
// reader that goes away early ending the statement without a hang.

import Foundation
import Testing

@Suite struct QueryCommandTests {
    /// Three accounts: a comma, a quote, a newline, an empty string, a missing value.
    static let accounts = #"""
        {"Name":"Acme Tools","Industry":"Retail","Size":120,"Rating":4.5}
        {"Name":"Bolt, Co","Industry":"Hard\"ware","Size":8}
        {"Name":"Cogs\nLtd","Industry":"","Size":40,"Rating":3}

        """#

    static let statement =
        "SELECT {accounts:Name}, {accounts:Size}, {accounts:Rating}, {accounts:Industry} FROM {accounts} ORDER BY {accounts:Size}"

    /// A store at `scratch/store` holding ``accounts``.
    static func makeStore(in scratch: ScratchDirectory) throws -> String {
        let store = scratch.file("store")
        let input = scratch.write("accounts.jsonl", accounts)
        let run = try ToolRun.stockpot([
            "import", store, "--soup", "accounts", "--index", "Name:string", "--index", "Size:integer",
            "--index", "Industry:string", input,
        ])
        #expect(run.status == 0, "\(run.errors)")
        return store
    }

    static let expected: [(format: String, output: String)] = [
        (
            "table",
            """
            +------------+-----+------+-----------+
            | Bolt, Co   |   8 | NULL | Hard"ware |
            | Cogs\\nLtd  |  40 |    3 |           |
            | Acme Tools | 120 |  4.5 | Retail    |
            +------------+-----+------+-----------+

            """
        ),
        (
            "json",
            """
            [
            ["Bolt, Co",8,null,"Hard\\"ware"],
            ["Cogs\\nLtd",40,3,""],
            ["Acme Tools",120,4.5,"Retail"]
            ]

            """
        ),
        (
            "jsonl",
            """
            ["Bolt, Co",8,null,"Hard\\"ware"]
            ["Cogs\\nLtd",40,3,""]
            ["Acme Tools",120,4.5,"Retail"]

            """
        ),
        ("csv", "\"Bolt, Co\",8,,\"Hard\"\"ware\"\r\n\"Cogs\nLtd\",40,3,\"\"\r\nAcme Tools,120,4.5,Retail\r\n"),
    ]

    @Test(arguments: expected.indices)
    func eachFormatPrintsTheExactRows(_ index: Int) throws {
        let scratch = try ScratchDirectory()
        let store = try Self.makeStore(in: scratch)
        let (format, output) = Self.expected[index]
        let run = try ToolRun.stockpot(["query", store, Self.statement, "--format", format])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.outputText == output)
        #expect(run.errors.isEmpty)
    }

    @Test func headerNamesTheColumnsInTableAndCSV() throws {
        let scratch = try ScratchDirectory()
        let store = try Self.makeStore(in: scratch)
        let sql = "SELECT {accounts:Name} AS name, {accounts:Size} * 2 FROM {accounts} WHERE {accounts:Size} > ? ORDER BY 2"
        let table = try ToolRun.stockpot(["query", store, sql, "--arg", "10", "--header"])
        #expect(table.status == 0, "\(table.errors)")
        #expect(
            table.outputText == """
                +------------+---------------------+
                | name       | {accounts:Size} * 2 |
                +------------+---------------------+
                | Cogs\\nLtd  |                  80 |
                | Acme Tools |                 240 |
                +------------+---------------------+

                """)
        let csv = try ToolRun.stockpot(["query", store, sql, "--arg", "10", "--header", "--format", "csv"])
        #expect(csv.outputText == "name,{accounts:Size} * 2\r\n\"Cogs\nLtd\",80\r\nAcme Tools,240\r\n")
        let jsonl = try ToolRun.stockpot(["query", store, sql, "--arg", "10", "--header", "--format", "jsonl"])
        #expect(jsonl.outputText == "[\"Cogs\\nLtd\",80]\n[\"Acme Tools\",240]\n")
    }

    @Test func objectsKeyEachRowByColumnName() throws {
        let scratch = try ScratchDirectory()
        let store = try Self.makeStore(in: scratch)
        let sql = "SELECT {accounts:Name} AS name, {accounts:Size} * 2, {accounts:Rating} FROM {accounts} WHERE {accounts:Size} > ? ORDER BY 2"
        let json = try ToolRun.stockpot(["query", store, sql, "--arg", "10", "--format", "json", "--objects"])
        #expect(json.status == 0, "\(json.errors)")
        #expect(
            json.outputText == """
                [
                {"name":"Cogs\\nLtd","{accounts:Size} * 2":80,"{accounts:Rating}":3},
                {"name":"Acme Tools","{accounts:Size} * 2":240,"{accounts:Rating}":4.5}
                ]

                """)
        let jsonl = try ToolRun.stockpot(["query", store, sql, "--arg", "10", "--format", "jsonl", "--objects"])
        #expect(
            jsonl.outputText == "{\"name\":\"Cogs\\nLtd\",\"{accounts:Size} * 2\":80,\"{accounts:Rating}\":3}\n"
                + "{\"name\":\"Acme Tools\",\"{accounts:Size} * 2\":240,\"{accounts:Rating}\":4.5}\n")
        let csv = try ToolRun.stockpot(["query", store, sql, "--arg", "10", "--format", "csv", "--objects"])
        #expect(csv.status == 64 && csv.errors.contains("'--objects' needs"), "\(csv.errors)")
    }

    @Test func explainQueryPlanPrintsThePlanInsteadOfTheRows() throws {
        let scratch = try ScratchDirectory()
        let store = try Self.makeStore(in: scratch)
        let run = try ToolRun.stockpot([
            "query", store, "EXPLAIN QUERY PLAN SELECT {accounts:Name} FROM {accounts} WHERE {accounts:Size} > ? ORDER BY {accounts:Size}",
            "--arg", "10", "--format", "csv", "--header",
        ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.outputText == "id,parent,notused,detail\r\n1,0,0,SEARCH accounts USING INDEX ON Size (Size>?)\r\n2,0,0,ORDER BY IN INDEX ORDER\r\n")
    }

    @Test func noRowsIsAnEmptyArrayInJSONAndNothingElsewhere() throws {
        let scratch = try ScratchDirectory()
        let store = try Self.makeStore(in: scratch)
        let sql = "SELECT {accounts:Name} FROM {accounts} WHERE {accounts:Size} > 1000"
        for (format, output) in [("json", "[]\n"), ("jsonl", ""), ("csv", ""), ("table", "")] {
            let run = try ToolRun.stockpot(["query", store, sql, "--format", format])
            #expect(run.status == 0)
            #expect(run.outputText == output, "\(format)")
        }
    }

    @Test func argumentsAreReadAsJSONElseAsText() throws {
        let scratch = try ScratchDirectory()
        let store = try Self.makeStore(in: scratch)
        let run = try ToolRun.stockpot([
            "query", store, "SELECT ?, ?, ?, ?, ?, ?, ?, typeof(?)", "--format", "jsonl",
            "--arg", "12", "--arg", "2.5", "--arg", "true", "--arg", "null", "--arg", "\"12\"",
            "--arg", "Retail", "--arg", "007", "--arg", "-3",
        ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.outputText == "[12,2.5,1,null,\"12\",\"Retail\",\"007\",\"integer\"]\n")

        let bound = try ToolRun.stockpot([
            "query", store, "SELECT {accounts:Name} FROM {accounts} WHERE {accounts:Size} >= ? AND {accounts:Industry} <> ?;",
            "--arg", "40", "--arg", "Retail", "--format", "jsonl",
        ])
        #expect(bound.status == 0, "\(bound.errors)")
        #expect(bound.outputText == "[\"Cogs\\nLtd\"]\n")
    }

    @Test(arguments: [
        ("SELECT {accounts:Name FROM {accounts}", "invalid_query"),
        ("SELECT {accounts:Name} FROM", "smart_sql_syntax"),
        ("SELECT 1; DELETE FROM {accounts}", "read_only_statement"),
        ("SELECT {nope:Name} FROM {nope}", "soup_not_found"),
        ("SELECT nope(1)", "invalid_query"),
        ("SELECT ?", "invalid_query"),
    ])
    func refusedStatementsExit65WithTheStoreMessage(_ sql: String, _ code: String) throws {
        let scratch = try ScratchDirectory()
        let store = try Self.makeStore(in: scratch)
        let run = try ToolRun.stockpot(["query", store, sql])
        #expect(run.status == 65)
        #expect(run.errors.hasPrefix("Error: \(code): "), "\(run.errors)")
        #expect(run.output.isEmpty)
    }

    @Test func missingStoreExits1AndBadCommandLinesExit64() throws {
        let scratch = try ScratchDirectory()
        let missing = try ToolRun.stockpot(["query", scratch.file("none"), "SELECT 1"])
        #expect(missing.status == 1)
        #expect(missing.errors.contains("no store at"))
        #expect(!StoreAccessProbe.exists(scratch.file("none")), "query must not create a store")

        let store = try Self.makeStore(in: scratch)
        let badFormat = try ToolRun.stockpot(["query", store, "SELECT 1", "--format", "xml"])
        #expect(badFormat.status == 64)
        #expect(badFormat.errors.contains("'--format' must be table|json|jsonl|csv"))
        let noSQL = try ToolRun.stockpot(["query", store])
        #expect(noSQL.status == 64)
        #expect(noSQL.errors.contains("Missing the argument SQL."))
    }

    @Test func readerGoingAwayEndsTheStatementWithoutHanging() throws {
        let scratch = try ScratchDirectory()
        let store = scratch.file("store")
        // 4,000 rows of about 230 bytes: many times the 64 KiB write and the pipe's buffer, so
        // writes after the close must fail.
        let padding = String(repeating: "x", count: 200)
        let lines = (0..<4000).map { #"{"k":\#($0),"text":"row \#($0) \#(padding)"}"# }.joined(separator: "\n")
        let input = scratch.write("rows.jsonl", lines + "\n")
        let imported = try ToolRun.stockpot(["import", store, "--soup", "rows", "--index", "k:integer", input])
        #expect(imported.status == 0, "\(imported.errors)")

        let process = Process()
        process.executableURL = ExecProcess.binaryURL
        process.arguments = ["query", store, "SELECT {rows:k}, {rows:text} FROM {rows} ORDER BY {rows:k}", "--format", "jsonl"]
        let output = Pipe()
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // Like `| head -1`: read the first line, then close the pipe.
        var received = Data()
        while !received.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
        try output.fileHandleForReading.close()
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        #expect(!process.isRunning)
        let first = String(decoding: received.prefix { $0 != 0x0A }, as: UTF8.self)
        #expect(first == #"[0,"row 0 \#(padding)"]"#)
        #expect(process.terminationReason == .exit, "killed by a signal instead of ending the statement")
        #expect(process.terminationStatus == 74)
    }
}

/// File existence without the tools' internals.
enum StoreAccessProbe {
    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
}
