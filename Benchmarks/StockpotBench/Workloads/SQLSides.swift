// Both sides of an sql.* workload, call by call: the Smart SQL statement through Stockpot's
// `forEachSmartRow`, and the same statement translated the SmartStore way and run by SQLite
// (compiled up front, as SmartStore's statement cache would hold it). Each side reads every
// value of every row.

import Stockpot
import StockpotJSON

/// One Smart SQL call: a statement and the values bound to its `?` placeholders.
struct SQLCall {
    var sql: String
    var arguments: [JSONValue] = []
}

/// The calls of one sql.* workload, ready to run on either side.
struct SQLSides {
    private let fixture: QueryFixture
    private let calls: [SQLCall]
    private let statements: [SQLiteStatement]
    private let binds: [[SQLiteValue]]

    init(fixture: QueryFixture, calls: [SQLCall]) throws {
        self.fixture = fixture
        self.calls = calls
        var compiled: [String: SQLiteStatement] = [:]
        var statements: [SQLiteStatement] = [], binds: [[SQLiteValue]] = []
        for call in calls {
            if compiled[call.sql] == nil {
                compiled[call.sql] = try fixture.baseline.database.prepare(try fixture.smartSQL.translate(call.sql))
            }
            statements.append(compiled[call.sql]!)
            binds.append(call.arguments.map(SmartStoreQuerySQL.bindValue))
        }
        self.statements = statements
        self.binds = binds
    }

    /// Runs call `index` on Stockpot, touching every value; the number of rows.
    func stockpot(_ index: Int) throws -> Int {
        var rows = 0, values = 0
        try fixture.store.forEachSmartRow(calls[index].sql, arguments: calls[index].arguments) { row in
            for value in row where !value.isNull { values &+= 1 }
            rows += 1
            return true
        }
        Sink.consume(UInt64(values))
        return rows
    }

    /// Runs call `index` on SQLite, reading every column of every row; the number of rows.
    func sqlite(_ index: Int) throws -> Int {
        var rows = 0, values = 0
        try sqliteRows(index) { statement in
            for column in 0..<statement.columnCount where statement.column(column) != .null { values &+= 1 }
            rows += 1
        }
        Sink.consume(UInt64(values))
        return rows
    }

    private func sqliteRows(_ index: Int, _ body: (SQLiteStatement) throws -> Void) throws {
        let statement = statements[index]
        statement.reset()
        try statement.bind(binds[index])
        while try statement.step() { try body(statement) }
        statement.reset()
    }

    /// Throws unless both sides return the same rows with the same values for `indexes`: in
    /// the same order when `ordered`, else as the same multiset of rows. Returns the rows of
    /// the checked calls, for the note.
    func crossCheck(_ workload: String, calls indexes: [Int], ordered: Bool) throws -> [[[SQLiteValue]]] {
        var checked: [[[SQLiteValue]]] = []
        for index in indexes {
            var ours: [[SQLiteValue]] = [], theirs: [[SQLiteValue]] = []
            try fixture.store.forEachSmartRow(calls[index].sql, arguments: calls[index].arguments) { row in
                ours.append(row.map(Self.sqliteValue))
                return true
            }
            try sqliteRows(index) { statement in theirs.append(statement.row()) }
            if !ordered {
                ours.sort { Self.key($0) < Self.key($1) }
                theirs.sort { Self.key($0) < Self.key($1) }
            }
            guard ours == theirs else {
                let first =
                    zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(ours.count, theirs.count)
                throw BenchFailure(
                    "\(workload): Stockpot and SQLite differ for \(calls[index].sql) with \(calls[index].arguments)"
                        + " (\(ours.count) vs \(theirs.count) rows\(ordered ? "" : ", sorted")); first difference at row \(first):"
                        + " \(ours.dropFirst(first).prefix(3)) vs \(theirs.dropFirst(first).prefix(3))")
            }
            checked.append(theirs)
        }
        return checked
    }

    /// A Stockpot value as SQLite would give it (booleans as 0 and 1; documents as JSON text).
    private static func sqliteValue(_ value: JSONValue) -> SQLiteValue {
        switch value {
        case .null: .null
        case .bool(let flag): .integer(flag ? 1 : 0)
        case .integer(let integer): .integer(integer)
        case .double(let double): .real(double)
        case .string(let text): .text(text)
        case .array, .object: .text(String(decoding: JSONWriter.write(value), as: UTF8.self))
        }
    }

    /// A sort key for a row, for comparing unordered results.
    private static func key(_ row: [SQLiteValue]) -> String {
        row.map { "\($0)" }.joined(separator: "\u{1}")
    }
}
