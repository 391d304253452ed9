// The baseline's alternative codec: Foundation's JSONSerialization, as iOS SmartStore uses
// NSJSONSerialization. On Linux its writer is slow enough to dominate inserts; see
// docs/benchmarks.md.

import Foundation

/// ``SoupCodec`` over `JSONSerialization` dictionaries.
struct FoundationCodec: SoupCodec {
    var name: String { "Foundation" }

    func stamped(_ document: [String: Any], id: Int64, now: Int64) -> [String: Any] {
        var entry = document
        entry["_soupEntryId"] = NSNumber(value: id)
        entry["_soupLastModifiedDate"] = NSNumber(value: now)
        entry["_soupCreatedDate"] = NSNumber(value: now)
        return entry
    }

    func serialize(_ document: [String: Any]) throws -> [UInt8] {
        [UInt8](try JSONSerialization.data(withJSONObject: document))
    }

    func indexValue(of document: [String: Any], spec: SoupIndexSpec) -> SQLiteValue {
        FoundationProjection.indexValue(of: document, spec: spec)
    }

    func parse(_ bytes: UnsafeRawBufferPointer) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] ?? [:]
    }
}
