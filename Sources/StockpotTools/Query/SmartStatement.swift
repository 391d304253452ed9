// Running one Smart SQL statement for the command line: `--arg` text to values, rows to a
// RowPrinter, store errors to ToolFailures (65 for a statement the store refuses).

import Stockpot
import StockpotJSON

/// One Smart SQL statement run from `query` or the shell.
enum SmartStatement {
    /// The value of an `--arg`: the text read as JSON when it is valid JSON (`12`, `2.5`,
    /// `true`, `null`, `"text"`), else the text itself as a string.
    static func argument(_ text: String) -> JSONValue {
        (try? JSONReader.parse(text)) ?? .string(text)
    }

    /// Runs `sql` on `store`, printing each row as it comes (after the column names, with
    /// `header`).
    ///
    /// - Returns: the number of rows.
    /// - Throws: ``ToolFailure``: status 65 for a statement the store refuses
    ///   (`smart_sql_syntax`, `read_only_statement`, `soup_not_found`, `invalid_query`), 74 for
    ///   an I/O error reading the store or writing the output, 1 otherwise. The message is the
    ///   store's, after its code.
    static func run(
        _ sql: String, arguments: [JSONValue], on store: Store, printer: RowPrinter, header: Bool = false,
        budget: QueryBudget = .default
    ) throws(ToolFailure) -> Int {
        var writeFailure: ToolFailure?
        do {
            if header || printer.rowsAreObjects {
                let names = try store.smartColumnNames(sql, arguments: arguments)
                printer.columnNames = names
                do throws(ToolFailure) {
                    if header { try printer.header(names) }
                } catch {
                    writeFailure = error
                }
            }
            if writeFailure == nil {
                try store.forEachSmartRow(sql, arguments: arguments, budget: budget) { row in
                    do throws(ToolFailure) {
                        try printer.append(row)
                        return true
                    } catch {
                        writeFailure = error
                        return false
                    }
                }
            }
        } catch {
            printer.abandon()
            throw failure(error)
        }
        if let writeFailure {
            printer.abandon()
            throw writeFailure
        }
        try printer.finish()
        return printer.rowCount
    }

    /// The failure for a store error; a statement stopped by its interruption (the shell's
    /// Ctrl-C) is just `interrupted`.
    static func failure(_ error: StockpotError) -> ToolFailure {
        if error.code == .cancelled { return ToolFailure("interrupted") }
        let status: ExitCode
        switch error.code {
        case .smartSqlSyntax, .readOnlyStatement, .soupNotFound, .invalidQuery: status = .dataError
        case .ioError: status = .ioError
        default: status = .failure
        }
        return ToolFailure("\(error.code): \(error.message)", status: status)
    }
}
