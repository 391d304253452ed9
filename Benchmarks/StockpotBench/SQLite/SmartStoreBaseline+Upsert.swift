// SmartStore's upsert of a batch (iOS upsertEntries, Android SmartStore.upsert): in one
// transaction, each document's entry is found by its `_soupEntryId` or, with an external id
// path, by `SELECT id FROM TABLE_n WHERE <the path's column> = ?`, then updated, or inserted
// when there is none; and SmartStore's delete of many ids (`WHERE id IN (...)`).

extension SmartStoreBaseline {
    /// Upserts one UTF-8 JSON document each, in one transaction: by `_soupEntryId` when
    /// `externalIdPath` is `nil`, else by the value at `externalIdPath`, which must be an
    /// indexed path (as SmartStore requires). Returns the entry ids.
    @discardableResult
    func upsert(json documents: [[UInt8]], externalIdPath: String?) throws -> [Int64] {
        let lookupSpec: SoupIndexSpec
        var lookup: SQLiteStatement?
        if let externalIdPath {
            guard let position = indexSpecs.firstIndex(where: { $0.path == externalIdPath }) else {
                throw BenchFailure("SQLite baseline: external id path \(externalIdPath) is not indexed")
            }
            lookupSpec = indexSpecs[position]
            lookup = try cachedStatement("SELECT id FROM \(tableName) WHERE \(columnNames[position]) = ?")
        } else {
            lookupSpec = SoupIndexSpec(path: "_soupEntryId", type: .integer)
        }
        var ids = [Int64]()
        ids.reserveCapacity(documents.count)
        try database.execute("BEGIN EXCLUSIVE")
        do {
            for json in documents {
                let document = try json.withUnsafeBytes { bytes in try codec.parse(bytes) }
                let key = codec.indexValue(of: document, spec: lookupSpec)
                var found: Int64?
                if let lookup {
                    lookup.reset()
                    try lookup.bind(key, at: 1)
                    if try lookup.step() { found = lookup.column(0).integerValue }
                    if found != nil, try lookup.step() {
                        throw BenchFailure("SQLite baseline: more than one entry has \(externalIdPath ?? "") \(key)")
                    }
                    lookup.reset()
                } else {
                    found = key.integerValue
                }
                if let found, try updateRow(id: found, document: document) {
                    ids.append(found)
                } else if externalIdPath != nil {
                    ids.append(try insertOne(document))
                } else {
                    throw BenchFailure("SQLite baseline: no entry \(key) to update")
                }
            }
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
        return ids
    }

    /// Deletes entries `ids` and their FTS rows in one transaction, as SmartStore's delete of
    /// several ids does (the ids written into the statement).
    func delete(ids: [Int64]) throws {
        let list = ids.map(String.init).joined(separator: ",")
        try database.execute("BEGIN EXCLUSIVE")
        do {
            try database.execute("DELETE FROM \(tableName) WHERE id IN (\(list))")
            if !fullTextSpecIndexes.isEmpty {
                try database.execute("DELETE FROM \(tableName)_fts WHERE rowid IN (\(list))")
            }
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }
}
