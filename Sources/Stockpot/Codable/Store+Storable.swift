// Storable values in and out of their soup through Foundation's JSON coders: the slower
// path at the API's edge (Foundation JSON is used in this folder only, never on the store's
// read, write, index or query paths). Rows of Smart SQL decode by column name. A decoding
// error names the entry (or row) and the field.

import Foundation
import StockpotJSON

extension WriteTransaction {
    /// Inserts or updates `records` in their soup, all or none: a record with an
    /// ``Storable/entryID`` replaces that entry, one without is inserted.
    ///
    /// - Returns: The records as stored, each with its entry id.
    /// - Throws: `invalid_entry` when a record does not encode to a JSON object; the errors
    ///   of ``upsert(json:into:externalIdPath:)``.
    @discardableResult
    public func upsert<R: Storable>(_ records: [R], encoder: JSONEncoder = JSONEncoder()) throws(StockpotError) -> [R] {
        var documents: [[UInt8]] = []
        documents.reserveCapacity(records.count)
        for (position, record) in records.enumerated() {
            documents.append(try RecordCoding.encode(record, position: position, encoder: encoder))
        }
        let stored = try upsert(json: documents, into: R.soupName)
        var saved = records
        for (position, bytes) in stored.enumerated() {
            if case .integer(let id)? = (try? SystemField.inspect(bytes))?.entryID { saved[position].entryID = id }
        }
        return saved
    }
}

extension Store {
    /// ``WriteTransaction/upsert(_:encoder:)`` in a transaction of its own.
    @discardableResult
    public func upsert<R: Storable>(_ records: [R], encoder: JSONEncoder = JSONEncoder()) throws(StockpotError) -> [R] {
        try perform { (transaction) throws(StockpotError) in try transaction.upsert(records, encoder: encoder) }
    }
}

extension StoreView {
    /// The records with these entry ids that exist, in the order of `ids`.
    ///
    /// - Throws: `soup_not_found`; `invalid_entry` naming the entry and the field when a
    ///   document does not decode as `type`.
    public func retrieve<R: Storable>(_ type: R.Type, ids: [Int64], decoder: JSONDecoder = JSONDecoder()) throws(StockpotError) -> [R] {
        try retrieve(json: ids, from: R.soupName).map { bytes throws(StockpotError) in
            try RecordCoding.decodeRecord(type, bytes, decoder: decoder)
        }
    }

    /// One page of a query's results in the type's soup, decoded.
    ///
    /// - Throws: `invalid_query` for a query with select paths (its rows are not
    ///   documents); the errors of ``query(_:in:page:)-(Query,_,_)``; `invalid_entry` naming the
    ///   entry and the field when a document does not decode.
    public func query<R: Storable>(
        _ query: Query, as type: R.Type, page: Int = 0, decoder: JSONDecoder = JSONDecoder()
    ) throws(StockpotError) -> [R] {
        guard query.selectPaths == nil else {
            throw StockpotError(.invalidQuery, "A query decoded as \(type) returns documents; it cannot have select paths.")
        }
        return try self.query(json: query.spec, in: R.soupName, page: page).rows.map { bytes throws(StockpotError) in
            try RecordCoding.decodeRecord(type, bytes, decoder: decoder)
        }
    }

    /// One page of a Smart SQL statement's rows, each decoded as `type` from an object whose
    /// members are the row's columns by name (``smartColumnNames(_:arguments:)``: the `AS`
    /// alias, else the expression as written).
    ///
    /// - Throws: the errors of ``smartQuery(_:arguments:page:pageSize:budget:)``;
    ///   `invalid_query` when two columns have the same name; `invalid_entry` naming the
    ///   row and the field when a row does not decode.
    public func smartQuery<T: Decodable>(
        _ sql: String, arguments: [JSONValue] = [], as type: T.Type, page: Int = 0, pageSize: Int,
        decoder: JSONDecoder = JSONDecoder()
    ) throws(StockpotError) -> [T] {
        let names = try smartColumnNames(sql, arguments: arguments)
        guard Set(names).count == names.count else {
            throw StockpotError(
                .invalidQuery, "Rows decode by column name, and two columns are named alike (\(names)); give them AS aliases.")
        }
        let rows = try smartQuery(sql, arguments: arguments, page: page, pageSize: pageSize).rows
        var decoded: [T] = []
        decoded.reserveCapacity(rows.count)
        for (position, row) in rows.enumerated() {
            guard case .array(let values) = row else { continue }
            let object = JSONValue.object(JSONObject(zip(names, values).map { ($0, $1) }))
            decoded.append(try RecordCoding.decode(type, JSONWriter.write(object), what: "Row \(page * pageSize + position)", decoder: decoder))
        }
        return decoded
    }
}

/// Encoding and decoding at the edge, with errors that name the entry and the field.
enum RecordCoding {
    /// `record` as document bytes with `_soupEntryId` set from its entry id (removed when nil).
    static func encode<R: Storable>(_ record: R, position: Int, encoder: JSONEncoder) throws(StockpotError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = Array(try encoder.encode(record))
        } catch {
            throw StockpotError(.invalidEntry, "Record \(position) (\(R.self)) does not encode to JSON: \(describe(error)).")
        }
        guard case .object(var object)? = try? JSONReader.parse(bytes) else {
            throw StockpotError(.invalidEntry, "Record \(position) (\(R.self)) does not encode to a JSON object.")
        }
        object[SystemField.entryID] = record.entryID.map { .integer($0) }
        return JSONWriter.write(.object(object))
    }

    /// A stored document as `type`, its entry id from `_soupEntryId`.
    static func decodeRecord<R: Storable>(_ type: R.Type, _ bytes: [UInt8], decoder: JSONDecoder) throws(StockpotError) -> R {
        let id: Int64?
        if case .integer(let value)? = (try? SystemField.inspect(bytes))?.entryID { id = value } else { id = nil }
        var record = try decode(type, bytes, what: "Entry \(id.map(String.init) ?? "?") of soup \"\(R.soupName)\"", decoder: decoder)
        record.entryID = id
        return record
    }

    static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], what: String, decoder: JSONDecoder) throws(StockpotError) -> T {
        do {
            return try decoder.decode(type, from: Data(bytes))
        } catch {
            throw StockpotError(.invalidEntry, "\(what) does not decode as \(type): \(describe(error)).")
        }
    }

    /// A coding error as "field a.b: what went wrong".
    static func describe(_ error: any Error) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.isEmpty
                ? "the top level" : "field " + codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case DecodingError.typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(type)"
        case DecodingError.valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(type), found null or nothing"
        case DecodingError.keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case DecodingError.dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case EncodingError.invalidValue(_, let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }
}
