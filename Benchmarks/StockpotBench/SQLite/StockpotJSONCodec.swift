// The baseline's default codec: StockpotJSON's reader, writer and IndexValue projection, so
// a store comparison measures storage and indexing, not two JSON libraries.

import StockpotJSON

/// ``SoupCodec`` over ``JSONValue``.
struct StockpotJSONCodec: SoupCodec {
    var name: String { "StockpotJSON" }

    func stamped(_ document: JSONValue, id: Int64, now: Int64) -> JSONValue {
        guard case .object(var object) = document else { return document }
        object["_soupEntryId"] = .integer(id)
        object["_soupLastModifiedDate"] = .integer(now)
        object["_soupCreatedDate"] = .integer(now)
        return .object(object)
    }

    func serialize(_ document: JSONValue) -> [UInt8] {
        JSONWriter.write(document)
    }

    func indexValue(of document: JSONValue, spec: SoupIndexSpec) -> SQLiteValue {
        switch IndexValue(document: document, path: spec.jsonPath, type: spec.type) {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .double(let double): .real(double)
        case .text(let text): .text(text)
        }
    }

    func parse(_ bytes: UnsafeRawBufferPointer) throws -> JSONValue {
        try JSONReader.parse(bytes)
    }
}
