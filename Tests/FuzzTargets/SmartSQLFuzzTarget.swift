// Fuzz target `smart-sql`: Smart SQL text through the parser, then bound and run against the
// scratch store (docs/smart-sql.md).

import Stockpot
import StockpotJSON
import StockpotQuery

/// Parses an input as a Smart SQL statement; one that parses is run against the scratch
/// store with no arguments and with three. Any failure must be a documented error, never
/// `internal`, and a statement's count must equal the rows it yields.
enum SmartSQLFuzzTarget {
    static let name = "smart-sql"
    nonisolated(unsafe) private static var scratch: ScratchStore?

    static func run(_ data: [UInt8]) throws(FuzzFailure) {
        let text = String(decoding: data, as: UTF8.self)
        guard (try? SQLParser.parse(text)) != nil else { return }
        let store = try scratchStore()
        for arguments: [JSONValue] in [[], [1, "Ann", .null]] {
            var rows = 0
            do {
                try store.forEachSmartRow(text, arguments: arguments) { _ in
                    rows += 1
                    return rows < 10_000
                }
            } catch {
                try expectDocumented(error)
                continue
            }
            guard rows < 10_000 else { continue }
            do {
                let count = try store.smartCount(text, arguments: arguments)
                if count != rows { throw FuzzFailure(name, "smartCount says \(count); the statement yields \(rows) rows") }
            } catch let error as StockpotError {
                try expectDocumented(error)
            } catch {
                throw FuzzFailure(name, "\(error)")
            }
        }
    }

    static func expectDocumented(_ error: StockpotError) throws(FuzzFailure) {
        if error.code == .internal { throw FuzzFailure(name, "an internal error: \(error)") }
    }

    private static func scratchStore() throws(FuzzFailure) -> Store {
        if let scratch { return scratch.store }
        do {
            let opened = try ScratchStore()
            scratch = opened
            return opened.store
        } catch {
            throw FuzzFailure(name, "the scratch store does not open: \(error)")
        }
    }
}
