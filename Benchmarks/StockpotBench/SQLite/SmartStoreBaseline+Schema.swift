// SmartStore's schema: createMetaTables (soup_index_map, soup_attrs, long_operations_status)
// and registerSoup (TABLE_n, its indexes, soup_index_map rows, TABLE_n_fts) in one transaction.

extension SmartStoreBaseline {
    /// The metadata tables every SmartStore database has.
    func createMetaTables() throws {
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS soup_index_map (soupName TEXT, path TEXT, columnName TEXT, columnType TEXT);
            CREATE INDEX IF NOT EXISTS soup_index_map_0 ON soup_index_map ( soupName );
            CREATE TABLE IF NOT EXISTS soup_attrs (id INTEGER PRIMARY KEY AUTOINCREMENT, soupName TEXT);
            CREATE INDEX IF NOT EXISTS soup_attrs_0 ON soup_attrs ( soupName );
            CREATE TABLE IF NOT EXISTS long_operations_status (id INTEGER PRIMARY KEY AUTOINCREMENT,
                type TEXT, details TEXT, status TEXT, created INTEGER, lastModified INTEGER);
            """)
    }

    /// Creates the soup's table, indexes and FTS table; returns the table name and each
    /// spec's column name (or json_extract expression).
    func registerSoup() throws -> (table: String, columns: [String]) {
        try database.execute("BEGIN EXCLUSIVE")
        do {
            let result = try registerSoupInTransaction()
            try database.execute("COMMIT")
            return result
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// The table and columns of the soup an earlier ``registerSoup()`` made, checked against
    /// ``indexSpecs``.
    func registeredSoup() throws -> (table: String, columns: [String]) {
        let id = try database.scalar("SELECT id FROM soup_attrs WHERE soupName = ?", binds: [.text(soupName)])
        guard let id = id.integerValue else { throw BenchFailure("SQLite baseline: no soup \(soupName) in the kept database") }
        let rows = try database.query(
            "SELECT path, columnName, columnType FROM soup_index_map WHERE soupName = ? ORDER BY rowid", binds: [.text(soupName)])
        let specs = rows.map { "\($0[0].textValue ?? ""):\($0[2].textValue ?? "")" }
        guard specs == indexSpecs.map({ "\($0.path):\($0.type.rawValue)" }) else {
            throw BenchFailure("SQLite baseline: soup \(soupName) in the kept database has specs \(specs)")
        }
        return ("TABLE_\(id)", rows.map { $0[1].textValue ?? "" })
    }

    private func registerSoupInTransaction() throws -> (table: String, columns: [String]) {
        _ = try database.query("INSERT INTO soup_attrs (soupName) VALUES (?)", binds: [.text(soupName)])
        let table = "TABLE_\(database.lastInsertRowID)"
        var columns = [String]()
        var definitions = ["id INTEGER PRIMARY KEY AUTOINCREMENT", "soup TEXT", "created INTEGER", "lastModified INTEGER"]
        for (position, spec) in indexSpecs.enumerated() {
            if spec.type == .json1 {
                columns.append("json_extract(soup, '$.\(spec.path)')")
            } else {
                let column = "\(table)_\(position)"
                columns.append(column)
                definitions.append("\(column) \(Self.columnType(of: spec))")
            }
        }
        try database.execute("CREATE TABLE \(table) (\(definitions.joined(separator: ", ")))")
        for (position, spec) in indexSpecs.enumerated() {
            _ = try database.query(
                "INSERT INTO soup_index_map (soupName, path, columnName, columnType) VALUES (?, ?, ?, ?)",
                binds: [.text(soupName), .text(spec.path), .text(columns[position]), .text(spec.type.rawValue)])
            try database.execute("CREATE INDEX \(table)_\(position)_idx ON \(table) ( \(columns[position]) )")
        }
        try database.execute("CREATE INDEX \(table)_created_idx ON \(table) ( created )")
        try database.execute("CREATE INDEX \(table)_lastModified_idx ON \(table) ( lastModified )")
        let ftsColumns = indexSpecs.indices.filter { indexSpecs[$0].type == .fullText }.map { columns[$0] }
        if !ftsColumns.isEmpty, database.library.hasFTS5 {
            try database.execute("CREATE VIRTUAL TABLE \(table)_fts USING fts5(\(ftsColumns.joined(separator: ", ")))")
        }
        return (table, columns)
    }

    /// SmartStore's column types: string and full_text TEXT, integer INTEGER, floating REAL.
    static func columnType(of spec: SoupIndexSpec) -> String {
        switch spec.type {
        case .string, .fullText: "TEXT"
        case .integer: "INTEGER"
        case .floating: "REAL"
        case .json1: ""
        }
    }
}
