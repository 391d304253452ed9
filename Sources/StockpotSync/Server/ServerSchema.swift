// The server's sync tables (docs/sync.md, "The server tables"): the statements that create
// them, the grants of a device role, and the check a sync makes before it reads or writes.

/// The server side of sync: one table per soup in schema `stockpot`, registered in
/// `stockpot.soups`.
package enum ServerSchema {
    /// The format of the tables this build reads and writes; `stockpot.soups.format`.
    /// Format 2 adds the receipts table; `initialize` upgrades a format 1 soup in place.
    package static let format: Int64 = 2

    /// The statements shared by every soup: the schema, the soup registry, the version
    /// sequence, the trigger function that stamps every change and the tombstone purge.
    static let common = """
        CREATE SCHEMA IF NOT EXISTS stockpot;
        CREATE TABLE IF NOT EXISTS stockpot.soups (
            soup text PRIMARY KEY,
            table_name text NOT NULL UNIQUE,
            format integer NOT NULL,
            purged_through xid8 NOT NULL DEFAULT '0');
        CREATE SEQUENCE IF NOT EXISTS stockpot.versions;
        CREATE OR REPLACE FUNCTION stockpot.stamp() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            NEW.version := nextval('stockpot.versions');
            NEW.txid := pg_current_xact_id();
            NEW.modified := clock_timestamp();
            RETURN NEW;
        END $$;
        CREATE OR REPLACE FUNCTION stockpot.purge_tombstones(p_soup text, p_older_than interval)
        RETURNS bigint LANGUAGE plpgsql AS $$
        DECLARE
            t text;
            n bigint;
            horizon xid8;
        BEGIN
            SELECT table_name INTO t FROM stockpot.soups WHERE soup = p_soup;
            IF t IS NULL THEN RAISE EXCEPTION 'soup % is not synced', p_soup USING ERRCODE = '42P01'; END IF;
            EXECUTE format('WITH gone AS (DELETE FROM stockpot.%I WHERE deleted AND modified <= clock_timestamp() - $1 RETURNING txid) SELECT count(*), max(txid) FROM gone', t)
                INTO n, horizon USING p_older_than;
            IF n > 0 THEN
                UPDATE stockpot.soups SET purged_through = greatest(purged_through, horizon) WHERE soup = p_soup;
            END IF;
            RETURN n;
        END $$;
        """

    /// The server table name of a soup: `soup_` and the name's letters, digits and `_`
    /// (others as `_`), with a hash of the name appended when that changed or shortened it.
    package static func tableName(forSoup soup: String) -> String {
        var name = Array("soup_".utf8)
        var changed = false
        for byte in soup.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                name.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                name.append(byte + 32)
                changed = true
            default:
                name.append(UInt8(ascii: "_"))
                changed = true
            }
        }
        if name.count > 40 {
            name.removeLast(name.count - 40)
            changed = true
        }
        var text = String(decoding: name, as: UTF8.self)
        if changed {
            var hash: UInt32 = 2_166_136_261  // FNV-1a: stable across runs and platforms
            for byte in soup.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
            let hex = String(hash, radix: 16)
            text += "_" + String(repeating: "0", count: 8 - hex.count) + hex
        }
        return text
    }

    /// The name of a soup's receipts table: for each device, the changes it wrote whose
    /// answers a failed run may not have recorded (docs/sync.md, "Receipts").
    package static func receiptsTableName(forSoup soup: String) -> String {
        receiptsTableName(forTable: tableName(forSoup: soup))
    }

    /// The receipts table beside the soup table named `table`.
    static func receiptsTableName(forTable table: String) -> String { table + "_receipts" }

    /// The statements that create one soup's tables, index and trigger, and register it (or
    /// bring a format 1 registration to this format).
    static func soupStatements(soup: String) -> String {
        let table = SQLText.identifier(tableName(forSoup: soup))
        let receipts = SQLText.identifier(receiptsTableName(forSoup: soup))
        let txidIndex = SQLText.identifier(tableName(forSoup: soup) + "_txid")
        return """
            CREATE TABLE IF NOT EXISTS stockpot.\(table) (
                key text PRIMARY KEY,
                doc jsonb,
                version bigint NOT NULL,
                deleted boolean NOT NULL DEFAULT false,
                modified timestamptz NOT NULL,
                device text NOT NULL,
                txid xid8 NOT NULL,
                CHECK (deleted = (doc IS NULL)));
            CREATE INDEX IF NOT EXISTS \(txidIndex) ON stockpot.\(table) (txid);
            CREATE OR REPLACE TRIGGER stamp BEFORE INSERT OR UPDATE ON stockpot.\(table)
                FOR EACH ROW EXECUTE FUNCTION stockpot.stamp();
            CREATE TABLE IF NOT EXISTS stockpot.\(receipts) (
                device text PRIMARY KEY,
                keys text[] NOT NULL,
                bases bigint[] NOT NULL,
                hashes bigint[] NOT NULL);
            INSERT INTO stockpot.soups (soup, table_name, format)
                VALUES (\(SQLText.literal(soup)), \(SQLText.literal(tableName(forSoup: soup))), \(format))
                ON CONFLICT (soup) DO NOTHING;
            UPDATE stockpot.soups SET format = \(format) WHERE soup = \(SQLText.literal(soup)) AND format = 1;
            """
    }

    /// The grants that let `role` sync `soups` and nothing more.
    static func grantStatements(role: String, soups: [String]) -> String {
        let quotedRole = SQLText.identifier(role)
        var statements = """
            GRANT USAGE ON SCHEMA stockpot TO \(quotedRole);
            GRANT SELECT ON stockpot.soups TO \(quotedRole);
            GRANT USAGE ON SEQUENCE stockpot.versions TO \(quotedRole);

            """
        for soup in soups {
            for table in [tableName(forSoup: soup), receiptsTableName(forSoup: soup)] {
                statements += "GRANT SELECT, INSERT, UPDATE ON stockpot.\(SQLText.identifier(table)) TO \(quotedRole);\n"
            }
        }
        return statements
    }

    /// Creates (or completes) the sync tables of `soups` in one transaction, and grants a
    /// device role what sync needs when `deviceRole` is given. Safe to run again.
    ///
    /// - Throws: `permission_denied`, `schema_mismatch` (a soup registered with another
    ///   format), `connection_*`.
    package static func initialize(_ connection: PGConnection, soups: [String], deviceRole: String?) throws(SyncError) {
        var script = "BEGIN;\n" + common
        for soup in soups { script += soupStatements(soup: soup) }
        if let deviceRole { script += grantStatements(role: deviceRole, soups: soups) }
        do {
            try connection.execute(script)
            for soup in soups { _ = try table(connection, soup: soup) }
            try connection.execute("COMMIT")
        } catch {
            if connection.isConnected { _ = try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    /// What a sync needs to know of a soup's server table.
    package struct SoupTable: Sendable {
        /// The quoted, schema-qualified table name.
        package var qualifiedName: String
        /// The quoted, schema-qualified name of the soup's receipts table.
        package var qualifiedReceipts: String
        /// Tombstones at or below this transaction id were purged (0: none).
        package var purgedThrough: UInt64
    }

    /// Looks up `soup` in the registry and checks its table's shape.
    ///
    /// - Throws: `server_not_initialized` (no registry, or the soup not in it),
    ///   `schema_mismatch` (another format, or a column missing or of another type),
    ///   `permission_denied`.
    package static func table(_ connection: PGConnection, soup: String) throws(SyncError) -> SoupTable {
        let row = try connection.execute(
            "SELECT table_name, format, purged_through::text FROM stockpot.soups WHERE soup = $1", [Array(soup.utf8)], soup: soup)
        guard row.rowCount == 1, let name = row.string(0, 0) else {
            throw SyncError(
                .serverNotInitialized, "The server has no sync table for soup \"\(soup)\" (run `stockpot sync init-server --soup \(soup)`).",
                soup: soup)
        }
        guard row.integer(0, 1) == format else {
            let found = row.string(0, 1) ?? "?"
            let remedy = found == "1" ? " (run `stockpot sync init-server --soup \(soup)` to upgrade it)" : ""
            throw SyncError(
                .schemaMismatch,
                "Soup \"\(soup)\"'s server table has format \(found); this version of Stockpot reads format \(format)\(remedy).", soup: soup)
        }
        let qualified = "stockpot." + SQLText.identifier(name)
        let receipts = "stockpot." + SQLText.identifier(receiptsTableName(forTable: name))
        try checkColumns(
            connection, soup: soup, table: qualified,
            expected: [
                "key": "text", "doc": "jsonb", "version": "bigint", "deleted": "boolean",
                "modified": "timestamp with time zone", "device": "text", "txid": "xid8",
            ])
        try checkColumns(
            connection, soup: soup, table: receipts, expected: ["device": "text", "keys": "text[]", "bases": "bigint[]", "hashes": "bigint[]"])
        return SoupTable(qualifiedName: qualified, qualifiedReceipts: receipts, purgedThrough: UInt64(row.string(0, 2) ?? "0") ?? 0)
    }

    /// Checks that `table` exists and has each expected column with its type.
    private static func checkColumns(_ connection: PGConnection, soup: String, table: String, expected: [String: String]) throws(SyncError) {
        let columns = try connection.execute(
            """
            SELECT attname::text, format_type(atttypid, atttypmod) FROM pg_attribute
            WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped
            """, [Array(table.utf8)], soup: soup)
        var found: [String: String] = [:]
        for index in 0..<columns.rowCount {
            if let column = columns.string(index, 0) { found[column] = columns.string(index, 1) }
        }
        if found.isEmpty {
            throw SyncError(.serverNotInitialized, "Soup \"\(soup)\" is registered but its server table \(table) is missing.", soup: soup)
        }
        for (column, type) in expected.sorted(by: { $0.key < $1.key }) where found[column] != type {
            throw SyncError(
                .schemaMismatch,
                "Soup \"\(soup)\"'s server table \(table) lacks column \(column) of type \(type) (found \(found[column] ?? "none")).", soup: soup)
        }
    }
}
