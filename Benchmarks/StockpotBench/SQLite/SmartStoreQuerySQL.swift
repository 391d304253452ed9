// The SQL SmartStore issues for a query spec (shared/reference/smartstore-semantics.md, 2.4
// and 2.5): `SELECT * FROM (<select> FROM TABLE_n WHERE ... ORDER BY ...) LIMIT offset,size`
// for a page, `SELECT count(*) FROM TABLE_n WHERE ...` for a count; match keys pasted in.

import Foundation  // replacingOccurrences
import Stockpot
import StockpotJSON

/// One SQL statement and the values bound to its `?` parameters.
struct SmartStoreStatement: Hashable {
    let sql: String
    let binds: [SQLiteValue]
}

/// Translates ``QuerySpec``s of a soup the way SmartStore's QuerySpec does.
struct SmartStoreQuerySQL {
    /// `TABLE_<n>`.
    let table: String
    /// Each indexed path's column (or json_extract expression for json1).
    let columns: [String: String]

    init<Codec>(baseline: SmartStoreBaseline<Codec>) {
        table = baseline.tableName
        var columns: [String: String] = [:]
        for (position, spec) in baseline.indexSpecs.enumerated() {
            columns[spec.path] = baseline.columnNames[position]
        }
        self.columns = columns
    }

    /// The statement that reads page `page` of `spec`.
    func page(_ spec: QuerySpec, page: Int) throws -> SmartStoreStatement {
        let select = (spec.selectPaths ?? ["_soup"]).map(column).joined(separator: ", ")
        let (condition, binds) = try whereClause(spec)
        var sql = "SELECT \(select) FROM \(table) \(condition)"
        if let path = spec.orderPath ?? spec.indexPath {
            sql += "ORDER BY \(column(path)) \(spec.order == .descending ? "DESC" : "ASC") "
        }
        return SmartStoreStatement(
            sql: "SELECT * FROM (\(sql)) LIMIT \(page * spec.pageSize),\(spec.pageSize)", binds: binds)
    }

    /// The statement that counts `spec`'s results (`countQuery`: no order, no limit).
    func count(_ spec: QuerySpec) throws -> SmartStoreStatement {
        let (condition, binds) = try whereClause(spec)
        return SmartStoreStatement(sql: "SELECT count(*) FROM \(table) \(condition)", binds: binds)
    }

    /// `{soup:path}` as Smart SQL resolves it.
    func column(_ path: String) -> String {
        switch path {
        case "_soup": "\(table).soup"
        case "_soupEntryId": "\(table).id"
        case "_soupCreatedDate": "\(table).created"
        case "_soupLastModifiedDate": "\(table).lastModified"
        default: columns[path] ?? "json_extract(soup, '$.\(path)')"
        }
    }

    private func whereClause(_ spec: QuerySpec) throws -> (String, [SQLiteValue]) {
        let path = spec.indexPath.map(column)
        switch spec.queryType {
        case .all:
            return ("", [])
        case .exact:
            guard let path, let key = spec.matchKey else { throw BenchFailure("exact spec without path or key") }
            return ("WHERE \(path) = ? ", [Self.bindValue(key)])
        case .range:
            guard let path else { return ("", []) }
            var terms: [String] = []
            var binds: [SQLiteValue] = []
            if let begin = spec.beginKey { terms.append("\(path) >= ?"); binds.append(Self.bindValue(begin)) }
            if let end = spec.endKey { terms.append("\(path) <= ?"); binds.append(Self.bindValue(end)) }
            return terms.isEmpty ? ("", []) : ("WHERE " + terms.joined(separator: " AND ") + " ", binds)
        case .like:
            guard let path, let key = spec.likeKey else { throw BenchFailure("like spec without path or key") }
            return ("WHERE \(path) LIKE ? ", [.text(key)])
        case .match:
            guard case .string(let key)? = spec.matchKey else { throw BenchFailure("match spec without key") }
            let qualified = spec.indexPath.map { qualify(key, column: column($0)) } ?? key
            let literal = qualified.replacingOccurrences(of: "'", with: "''")
            return ("WHERE \(table).id IN (SELECT rowid FROM \(table)_fts WHERE \(table)_fts MATCH '\(literal)') ", [])
        case .smart:
            throw BenchFailure("smart specs are not translated here")
        }
    }

    /// SmartStore's `qualifyMatchKey`: every token but parentheses and AND/OR/NOT gets the
    /// column prefix (`TABLE_1_5:term`).
    private func qualify(_ key: String, column: String) -> String {
        key.split(separator: " ").map { token in
            let upper = token.uppercased()
            if token.hasPrefix("(") || token.hasPrefix(")") || token.hasPrefix("{") || ["AND", "OR", "NOT"].contains(upper) {
                return String(token)
            }
            return column + ":" + token
        }.joined(separator: " ")
    }

    /// A key as SQLite binds it (column affinity then converts text keys for numeric columns).
    static func bindValue(_ key: JSONValue) -> SQLiteValue {
        switch key {
        case .integer(let integer): .integer(integer)
        case .double(let double): .real(double)
        case .string(let text): .text(text)
        case .bool(let flag): .integer(flag ? 1 : 0)
        case .null: .null
        default: .text(String(decoding: JSONWriter.write(key), as: UTF8.self))
        }
    }
}
