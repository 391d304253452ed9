// SmartStore's update path (iOS updateOneEntry, Android DBHelper.update): stamp the last
// modified date, serialize, project every index path, update the row and its FTS row, in one
// transaction; and its delete path. The "after a write" workloads and store.mixed use them.

import Foundation  // Date

extension SmartStoreBaseline {
    /// Replaces entry `id` with `json` (one UTF-8 JSON document), as SmartStore's upsert of an
    /// existing entry does; returns whether a row was updated.
    @discardableResult
    func update(id: Int64, json: [UInt8]) throws -> Bool {
        let document = try json.withUnsafeBytes { bytes in try codec.parse(bytes) }
        try database.execute("BEGIN EXCLUSIVE")
        do {
            let changed = try updateRow(id: id, document: document)
            try database.execute("COMMIT")
            return changed
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// Replaces entry `id` with `document` inside the caller's transaction: stamps it,
    /// serializes it, updates the row's soup and index columns and its FTS row. Returns
    /// whether a row was updated.
    func updateRow(id: Int64, document: Codec.Document) throws -> Bool {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let entry = codec.stamped(document, id: id, now: now)
        let soup = try codec.serialize(entry)
        let stored = indexSpecs.indices.filter { indexSpecs[$0].type != .json1 }
        let assignments = (["soup = ?", "lastModified = ?"] + stored.map { "\(columnNames[$0]) = ?" })
            .joined(separator: ", ")
        var binds: [SQLiteValue] = [.text(String(decoding: soup, as: UTF8.self)), .integer(now)]
        binds += stored.map { codec.indexValue(of: entry, spec: indexSpecs[$0]) }
        binds.append(.integer(id))
        let update = try cachedStatement("UPDATE \(tableName) SET \(assignments) WHERE id = ?")
        update.reset()
        try update.bind(binds)
        try update.step()
        let changed = database.changes > 0
        let fullText = fullTextSpecIndexes
        if changed, !fullText.isEmpty {
            let sets = fullText.map { "\(columnNames[$0]) = ?" }.joined(separator: ", ")
            let fts = try cachedStatement("UPDATE \(tableName)_fts SET \(sets) WHERE rowid = ?")
            fts.reset()
            try fts.bind(fullText.map { codec.indexValue(of: entry, spec: indexSpecs[$0]) } + [.integer(id)])
            try fts.step()
        }
        return changed
    }
}

extension SmartStoreBaseline {
    /// Deletes entry `id` and its FTS row in one transaction, as SmartStore's delete does.
    func delete(id: Int64) throws {
        try database.execute("BEGIN EXCLUSIVE")
        do {
            let row = try cachedStatement("DELETE FROM \(tableName) WHERE id = ?")
            row.reset()
            try row.bind([.integer(id)])
            try row.step()
            if !fullTextSpecIndexes.isEmpty {
                let fts = try cachedStatement("DELETE FROM \(tableName)_fts WHERE rowid = ?")
                fts.reset()
                try fts.bind([.integer(id)])
                try fts.step()
            }
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }
}
