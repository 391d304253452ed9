// `stockpot query STORE SQL [--arg VALUE ...] [--format table|json|jsonl|csv]`: one Smart SQL
// statement, its rows streamed to standard output.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Stockpot
import StockpotJSON

/// The `query` subcommand.
public struct QueryCommand: ParsableCommand {
    /// The store directory.
    public var directory: String
    /// The Smart SQL statement.
    public var sql: String
    /// The texts of the `--arg` options, in order.
    public var arguments: [String]
    /// How rows are printed.
    package var format: RowFormat
    /// Print the column names first (table and csv).
    package var header: Bool
    /// Print json and jsonl rows as objects keyed by column name.
    package var objects: Bool
    /// The key file (`--key-file`, or STOCKPOT_KEY_FILE); nil for a plain store.
    public var keyFile: String?

    /// How `query` documents itself.
    public static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run one Smart SQL statement and print its rows.",
        discussion: """
            Runs SQL, a Smart SQL SELECT ({soup} names a soup, {soup:path} a value of its entries; docs/smart-sql.md), on the store in STORE and prints its rows on standard output as the engine produces them: json, jsonl and csv are written while the statement runs (at least every 64 KiB, every row when standard output is a terminal); table collects the rows first to size its columns. With --header, table and csv begin with the result column names (each column's AS alias, else its expression as written, as SQLite names them).
            Values: text as text, numbers as JSON numbers, a {soup:_soup} document as compact JSON; null is NULL in a table and an empty field in CSV (an empty string is ""). CSV follows RFC 4180 (CRLF line ends).
            Exit status: 0 with the rows printed; 65 when the store refuses the statement (smart_sql_syntax, read_only_statement, soup_not_found, invalid_query: the message on standard error); 1 when there is no store at STORE; 74 for an I/O error, and also (without a message) when the reader of standard output goes away, which ends the statement early.
            """,
        usage: "query STORE SQL [--arg VALUE ...] [--format table|json|jsonl|csv] [--header] [--objects]",
        arguments: [
            .init("STORE", "The store directory; it must exist."),
            .init("SQL", "One Smart SQL SELECT statement (a trailing ';' is allowed)."),
        ],
        options: [
            .init(
                "--arg VALUE",
                "The value of the next '?' placeholder; repeat for more, in order. VALUE is read as JSON when it is valid JSON (12, 2.5, true, null, '\"12\"'), else taken as a string."
            ),
            .init(
                "--format table|json|jsonl|csv",
                "table (the default): boxed columns; json: one array of row arrays; jsonl: one row array per line; csv: RFC 4180."),
            .init("--header", "Begin table and csv output with the result column names (json and jsonl have none)."),
            .init(
                "--objects",
                "With --format json or jsonl: each row as an object whose members are the columns by name (the AS alias, else the expression as written), in column order."
            ),
            KeyFile.optionHelp,
        ],
        examples: [
            .init(
                "query ./store 'SELECT {accounts:Name} FROM {accounts} ORDER BY {accounts:Name} LIMIT 5'",
                "Prints the first five account names in a table."),
            .init(
                "query ./store 'SELECT {accounts:Industry}, count(*) FROM {accounts} WHERE {accounts:Industry} = ? GROUP BY 1' --arg Retail --format csv",
                "Counts the accounts of one industry, as CSV."),
            .init(
                "query ./store 'SELECT {accounts:_soup} FROM {accounts}' --format jsonl | head -3",
                "Streams whole entries as JSON Lines; the statement stops when head goes away."),
            .init(
                "query ./store 'SELECT {accounts:Name} AS name, {accounts:Industry} AS industry FROM {accounts}' --format json --objects",
                "Prints [{\"name\": ..., \"industry\": ...}, ...]."),
        ])

    /// Reads the options and arguments.
    public init(parsing arguments: inout ArgumentScanner) throws(UsageError) {
        let name = try arguments.takeOption("--format") ?? RowFormat.table.rawValue
        guard let format = RowFormat(name: name) else {
            throw UsageError("The option '--format' must be \(RowFormat.names), not '\(name)'.")
        }
        self.format = format
        header = try arguments.takeFlag("--header")
        objects = try arguments.takeFlag("--objects")
        guard !objects || format == .json || format == .jsonl else {
            throw UsageError("The option '--objects' needs '--format json' or '--format jsonl'.")
        }
        self.arguments = try arguments.takeRepeatedOption("--arg")
        keyFile = try KeyFile.takePath(&arguments)
        directory = try arguments.takePositional("STORE")
        sql = try arguments.takePositional("SQL")
    }

    /// Opens the store, prints the statement's rows, closes the store.
    public func run() -> ExitCode {
        // A reader that goes away must end the statement, not the process before the close.
        signal(SIGPIPE, SIG_IGN)
        let output = ByteOutput.standardOutput()
        do throws(ToolFailure) {
            let store = try StoreAccess.openForReading(directory, encryption: KeyFile.encryption(keyFile))
            let printer = RowPrinter(format: format, output: output, flushEachRow: isatty(1) != 0, rowsAreObjects: objects)
            let values = arguments.map(SmartStatement.argument)
            let result: Result<Int, ToolFailure>
            do throws(ToolFailure) {
                result = .success(try SmartStatement.run(sql, arguments: values, on: store, printer: printer, header: header))
            } catch {
                result = .failure(error)
            }
            try StoreAccess.close(store)
            _ = try result.get()
            return .success
        } catch {
            if output.readerWentAway { return .ioError }
            return error.report()
        }
    }
}
