// A convenience layer for `Codable` types through Foundation's JSON coders. It is the slower
// path (Foundation parses at about a tenth of StockpotJSON's speed here); hot paths use the
// raw UTF-8 JSON or `JSONValue` calls. Foundation JSON is used here only, at this API edge:
// never on the store's read, write, index or query paths, which see only the bytes it makes.

import Foundation
import StockpotJSON

extension Store {
    /// Inserts or replaces `values`, encoded with `encoder`, all or none.
    ///
    /// The slower convenience path: each value goes through `JSONEncoder`, then is read again
    /// as bytes. Each value must encode to a JSON object.
    ///
    /// - Returns: The entry ids the values were stored under, in order.
    /// - Throws: `invalid_entry` when a value does not encode to a JSON object; the errors of
    ///   ``upsert(_:into:externalIdPath:)-5kn3m``.
    @discardableResult
    public func upsert<T: Encodable>(
        encoding values: [T], into soup: String, externalIdPath: String? = nil,
        encoder: JSONEncoder = JSONEncoder()
    ) throws(StockpotError) -> [Int64] {
        var documents: [[UInt8]] = []
        documents.reserveCapacity(values.count)
        for (position, value) in values.enumerated() {
            do {
                documents.append(Array(try encoder.encode(value)))
            } catch {
                throw StockpotError(.invalidEntry, "Value \(position) does not encode to JSON: \(error).")
            }
        }
        let stored = try perform { (transaction) throws(StockpotError) in
            try transaction.upsert(json: documents, into: soup, externalIdPath: externalIdPath)
        }
        return stored.map { bytes in
            if case .integer(let id)? = (try? SystemField.inspect(bytes))?.entryID { return id }
            return 0
        }
    }

    /// The entries with these ids that exist, decoded as `type` with `decoder`, in the order
    /// of `ids`. The slower convenience path (Foundation's `JSONDecoder`).
    ///
    /// - Throws: `soup_not_found`; `invalid_entry` when a document does not decode as `type`.
    public func retrieve<T: Decodable>(
        _ type: T.Type, ids: [Int64], from soup: String, decoder: JSONDecoder = JSONDecoder()
    ) throws(StockpotError) -> [T] {
        try retrieve(json: ids, from: soup).map { bytes throws(StockpotError) in
            do {
                return try decoder.decode(type, from: Data(bytes))
            } catch {
                throw StockpotError(.invalidEntry, "A document of soup \"\(soup)\" does not decode as \(type): \(error).")
            }
        }
    }
}
