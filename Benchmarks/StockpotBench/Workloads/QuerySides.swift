// Both sides of a query workload, call by call: Stockpot's `query`/`count`, and SQLite running
// SmartStore's statement for the same spec (compiled up front, as a statement cache would
// hold it), both handing the caller the same thing: raw JSON rows, read trees, one field,
// selected values, or a count.

import Foundation  // JSONSerialization, for --baseline-json foundation
import Stockpot

/// The calls of one workload, ready to run on either side.
struct QuerySides {
    private enum Rows {
        /// `SELECT soup`: each row's document is parsed and every value read.
        case documents
        /// The `Name` column: each row's text is read.
        case field
        /// `SELECT soup`: each row's bytes are copied out, not parsed.
        case rawDocuments
        /// Selected columns: each row's values are read.
        case values
        /// `SELECT count(*)`.
        case count
    }

    private let fixture: QueryFixture
    private let calls: [QueryCall]
    private let statements: [SQLiteStatement]
    private let binds: [[SQLiteValue]]
    private let rows: [Rows]
    /// Parse SQLite's documents with JSONSerialization (as iOS SmartStore does) instead of
    /// StockpotJSON.
    private let foundation: Bool

    init(fixture: QueryFixture, calls: [QueryCall], options: BenchOptions) throws {
        self.fixture = fixture
        foundation = options.baselineJSON == .foundation
        self.calls = calls
        var compiled: [String: SQLiteStatement] = [:]
        var statements: [SQLiteStatement] = [], binds: [[SQLiteValue]] = [], rows: [Rows] = []
        let keyset = options.sqliteSetup == .tuned ? try KeysetPages(fixture: fixture, calls: calls) : nil
        for (index, call) in calls.enumerated() {
            var spec = call.spec
            if call.shape == .field, !call.counts, spec.selectPaths == nil { spec.selectPaths = ["Name"] }
            let statement =
                try keyset?.statement(index)
                ?? (call.counts ? try fixture.sql.count(spec) : try fixture.sql.page(spec, page: call.page))
            if compiled[statement.sql] == nil { compiled[statement.sql] = try fixture.baseline.database.prepare(statement.sql) }
            statements.append(compiled[statement.sql]!)
            binds.append(statement.binds)
            rows.append(
                call.counts
                    ? .count
                    : call.spec.selectPaths != nil
                        ? .values
                        : call.shape == .field ? .field : call.shape == .json ? .rawDocuments : .documents)
        }
        self.statements = statements
        self.binds = binds
        self.rows = rows
    }

    /// Runs call `index` on Stockpot; the number of rows, or the count.
    func stockpot(_ index: Int) throws -> Int {
        let call = calls[index]
        if call.counts { return try fixture.store.count(call.spec, in: StoreSoups.name) }
        if case .rawDocuments = rows[index] {
            return try fixture.store.query(json: call.spec, in: StoreSoups.name, page: call.page).rows.count
        }
        let page = try fixture.store.query(call.spec, in: StoreSoups.name, page: call.page).rows
        var used: UInt64 = 0
        switch rows[index] {
        case .documents: for row in page { used &+= DocumentUse.walkTree.use(row) }
        case .field: for row in page { used &+= DocumentUse.readName.use(row) }
        case .values, .rawDocuments, .count: break
        }
        Sink.consume(used)
        return page.count
    }

    /// Runs call `index` on SQLite; the number of rows, or the count.
    func sqlite(_ index: Int) throws -> Int {
        var result = 0
        // The rows a raw-JSON query returns, as Stockpot's page holds them.
        var rawRows: [[UInt8]] = []
        var used: UInt64 = 0
        defer { Sink.consume(UInt64(rawRows.count) &+ used) }
        try sqliteRows(index) { statement in
            switch rows[index] {
            case .count: result = Int(statement.column(0).integerValue ?? 0)
            case .documents:
                if foundation {
                    let document = try JSONSerialization.jsonObject(with: statement.withColumnBytes(0) { Data($0) })
                    used &+= DocumentUse.walkTree.use(foundation: document)
                } else {
                    used &+= DocumentUse.walkTree.use(try statement.withColumnBytes(0) { try JSONReader.parse($0) })
                }
                result += 1
            case .field:
                if case .text(let name) = statement.column(0) { used &+= UInt64(name.utf8.count) }
                result += 1
            case .rawDocuments:
                rawRows.append(statement.withColumnBytes(0) { [UInt8]($0) })
                result += 1
            case .values:
                for column in 0..<statement.columnCount { _ = statement.column(column) }
                result += 1
            }
        }
        return result
    }

    private func sqliteRows(_ index: Int, _ body: (SQLiteStatement) throws -> Void) throws {
        let statement = statements[index]
        statement.reset()
        try statement.bind(binds[index])
        while try statement.step() { try body(statement) }
        statement.reset()
    }

    /// Throws unless both sides return the same entry ids in the same order (or the same
    /// count) for `indexes`, and Stockpot's total for a page equals SQLite's count.
    func crossCheck(_ workload: String, calls indexes: [Int]) throws {
        for index in indexes {
            let call = calls[index]
            if case .field = rows[index] {
                let ours = try fixture.store.query(call.spec, in: StoreSoups.name, page: call.page).rows.map { $0["Name"]?.stringValue ?? "" }
                var theirs: [String] = []
                try sqliteRows(index) { statement in theirs.append(statement.column(0).textValue ?? "") }
                guard ours == theirs else {
                    throw BenchFailure("\(workload): Stockpot and SQLite differ for \(Self.describe(call)): \(ours.prefix(5)) vs \(theirs.prefix(5))")
                }
                continue
            }
            let (ours, oursTotal) = try stockpotIDs(call)
            var theirs: [Int64] = []
            try sqliteRows(index) { statement in
                switch rows[index] {
                case .count, .values: theirs.append(statement.column(0).integerValue ?? -1)
                case .field: break
                case .documents, .rawDocuments:
                    let document = try statement.withColumnBytes(0) { try JSONReader.parse($0) }
                    theirs.append(document["_soupEntryId"]?.integerValue ?? -1)
                }
            }
            guard ours == theirs else {
                throw BenchFailure(
                    "\(workload): Stockpot and SQLite differ for \(Self.describe(call)): \(ours.prefix(12)) vs \(theirs.prefix(12))"
                        + " (\(ours.count) vs \(theirs.count) rows)")
            }
            if let oursTotal {
                let count = try fixture.baseline.database.scalar(
                    try fixture.sql.count(call.spec).sql, binds: try fixture.sql.count(call.spec).binds)
                guard count.integerValue == Int64(oursTotal) else {
                    throw BenchFailure("\(workload): Stockpot counts \(oursTotal), SQLite \(count) for \(Self.describe(call))")
                }
            }
        }
    }

    /// Stockpot's ids for a page (and its total), or its count as the one "id".
    private func stockpotIDs(_ call: QueryCall) throws -> ([Int64], Int?) {
        if call.counts { return ([Int64(try fixture.store.count(call.spec, in: StoreSoups.name))], nil) }
        if call.shape == .json, call.spec.selectPaths == nil {
            let page = try fixture.store.query(json: call.spec, in: StoreSoups.name, page: call.page)
            let rows = try page.rows.map { try JSONReader.parse($0) }
            return (rows.map { $0["_soupEntryId"]?.integerValue ?? -1 }, page.totalEntries)
        }
        let page = try fixture.store.query(call.spec, in: StoreSoups.name, page: call.page)
        let ids = page.rows.map { row in
            (call.spec.selectPaths == nil ? row["_soupEntryId"] : row.arrayValue?.first)?.integerValue ?? -1
        }
        return (ids, page.totalEntries)
    }

    private static func describe(_ call: QueryCall) -> String {
        let spec = call.spec
        let key = spec.likeKey ?? spec.matchKey.map { "\($0)" } ?? "\(spec.beginKey.map { "\($0)" } ?? "-")..\(spec.endKey.map { "\($0)" } ?? "-")"
        return "\(spec.queryType.rawValue) \(spec.indexPath ?? "-") \(key) page \(call.page)\(call.counts ? " (count)" : "")"
    }
}
