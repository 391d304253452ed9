// SmartStore's create path (iOS insertOneEntry, Android DBHelper.insert): next id from
// sqlite_sequence, stamp the system fields, serialize, project every index path, insert the
// row and its FTS row; BEGIN EXCLUSIVE ... COMMIT around every `batchSize` entries.

import Foundation  // Date

extension SmartStoreBaseline {
    /// Compiles the statements the insert and get paths reuse.
    func prepareStatements() throws {
        nextIdStatement = try database.prepare("SELECT seq FROM sqlite_sequence WHERE name = ?")
        let stored = indexSpecs.indices.filter { indexSpecs[$0].type != .json1 }.map { columnNames[$0] }
        let columns = ["id", "soup", "created", "lastModified"] + stored
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        insertStatement = try database.prepare(
            "INSERT INTO \(tableName) (\(columns.joined(separator: ", "))) VALUES (\(marks))")
        let ftsColumns = fullTextSpecIndexes.map { columnNames[$0] }
        if !ftsColumns.isEmpty {
            let ftsMarks = Array(repeating: "?", count: ftsColumns.count + 1).joined(separator: ", ")
            insertFTSStatement = try database.prepare(
                "INSERT INTO \(tableName)_fts (rowid, \(ftsColumns.joined(separator: ", "))) VALUES (\(ftsMarks))")
        }
        getStatement = try database.prepare("SELECT soup FROM \(tableName) WHERE id = ?")
    }

    /// Creates one entry per document and returns their soup entry ids, committing every
    /// ``Configuration/batchSize`` entries.
    @discardableResult
    func insert(documents: [Codec.Document]) throws -> [Int64] {
        var ids = [Int64]()
        ids.reserveCapacity(documents.count)
        var start = 0
        while start < documents.count {
            let end = min(start + configuration.batchSize, documents.count)
            try database.execute("BEGIN EXCLUSIVE")
            do {
                for index in start..<end {
                    ids.append(try insertOne(documents[index]))
                }
                try database.execute("COMMIT")
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
            start = end
        }
        return ids
    }

    /// Creates one entry per UTF-8 JSON document, parsing each with the codec inside the
    /// transaction (SmartStore receives documents as JSON text from its bridge), committing
    /// every ``Configuration/batchSize`` entries; returns the soup entry ids.
    @discardableResult
    func insert(json documents: [[UInt8]]) throws -> [Int64] {
        var ids = [Int64]()
        ids.reserveCapacity(documents.count)
        var start = 0
        while start < documents.count {
            let end = min(start + configuration.batchSize, documents.count)
            try database.execute("BEGIN EXCLUSIVE")
            do {
                for index in start..<end {
                    let document = try documents[index].withUnsafeBytes { bytes in try codec.parse(bytes) }
                    ids.append(try insertOne(document))
                }
                try database.execute("COMMIT")
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
            start = end
        }
        return ids
    }

    /// Inserts one entry inside the caller's transaction; returns its soup entry id.
    func insertOne(_ document: Codec.Document) throws -> Int64 {
        guard let insert = insertStatement, let nextId = nextIdStatement else { return 0 }
        let id = try nextEntryId(nextId)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let entry = codec.stamped(document, id: id, now: now)
        let soup = try codec.serialize(entry)
        var values = [SQLiteValue]()
        values.reserveCapacity(indexSpecs.count)
        for spec in indexSpecs {
            values.append(codec.indexValue(of: entry, spec: spec))
        }
        try writeRow(insert, id: id, soup: soup, now: now, values: values)
        if let fts = insertFTSStatement {
            try writeFullTextRow(fts, id: id, values: values)
        }
        return id
    }

    /// Binds and runs the soup-table insert.
    private func writeRow(_ insert: SQLiteStatement, id: Int64, soup: [UInt8], now: Int64, values: [SQLiteValue]) throws {
        insert.reset()
        try insert.bind(.integer(id), at: 1)
        try insert.bindText(utf8: soup, at: 2)
        try insert.bind(.integer(now), at: 3)
        try insert.bind(.integer(now), at: 4)
        var parameter: Int32 = 5
        for position in indexSpecs.indices where indexSpecs[position].type != .json1 {
            try insert.bind(values[position], at: parameter)
            parameter += 1
        }
        try insert.step()
    }

    /// Binds and runs the FTS insert (rowid = entry id).
    private func writeFullTextRow(_ fts: SQLiteStatement, id: Int64, values: [SQLiteValue]) throws {
        fts.reset()
        try fts.bind(.integer(id), at: 1)
        var parameter: Int32 = 2
        for position in fullTextSpecIndexes {
            try fts.bind(values[position], at: parameter)
            parameter += 1
        }
        try fts.step()
    }

    /// `seq + 1` from sqlite_sequence (1 for an empty soup), so ids are never reused.
    private func nextEntryId(_ statement: SQLiteStatement) throws -> Int64 {
        statement.reset()
        try statement.bind(.text(tableName), at: 1)
        let seq = try statement.step() ? statement.column(0).integerValue ?? 0 : 0
        statement.reset()
        return seq + 1
    }
}
