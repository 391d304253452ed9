// A document handed to upsert, as a value tree or as UTF-8 JSON bytes: what the upsert rules
// need from it (its system fields, a path's value) and the stored bytes with the system
// fields set. The bytes path never builds a tree when the input is canonical JSON.

import StockpotIndex
import StockpotJSON

/// One incoming document, validated.
enum IncomingDocument {
    /// From the `JSONValue` API.
    case object(JSONObject)
    /// From the bytes API, scanned (valid JSON, not yet known to be an object). A slice: the
    /// documents of one request may share the buffer of the line they came in.
    case bytes(ArraySlice<UInt8>, JSONIntegerMembersScan)

    /// Validates bytes, locating the top-level members named by `located` on the way (see
    /// ``locatedKeys(for:)``).
    ///
    /// - Throws: `invalid_entry` when they are not valid JSON.
    static func scanning(
        _ bytes: ArraySlice<UInt8>, position: Int, locating located: JSONLocatedKeys? = nil
    ) throws(StockpotError) -> IncomingDocument {
        let inspected: Result<JSONIntegerMembersScan, JSONError> = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONError) -> JSONIntegerMembersScan in
                try SystemField.inspect(raw, alsoLocating: located, limits: scanLimits)
            }
        }
        do {
            return .bytes(bytes, try inspected.get())
        } catch {
            throw StockpotError(.invalidEntry, "Entry \(position) of the batch is not valid JSON: \(error).")
        }
    }

    /// The limits incoming bytes are checked with: JSON's depth limit, no size or string
    /// limits (the store's document limit applies to the document, as `limit_exceeded`).
    static let scanLimits = JSONLimits(maxInputBytes: Int.max, maxStringBytes: Int.max)

    /// The keys whose members ``scanning(_:position:locating:)`` locates for `extractor`: the
    /// first keys of its paths, so that ``indexedEntry(id:stamped:extractor:soupName:)``
    /// reads their values without walking the document again. None when a path is empty or
    /// starts at a system field (whose value the store sets while stamping).
    static func locatedKeys(for extractor: JSONFieldExtractor) -> JSONLocatedKeys? {
        guard let keys = extractor.rootKeys, !keys.isEmpty else { return nil }
        let systemKeys = [Array(SystemField.entryID.utf8), Array(SystemField.lastModified.utf8)]
        guard !keys.contains(where: systemKeys.contains) else { return nil }
        return JSONLocatedKeys(keys, besides: SystemField.members)
    }

    /// The entry's index values. Read from the incoming bytes at the members their scan
    /// located when it located `extractor`'s root keys (the stored bytes differ from them only
    /// in the system fields, which no located key names); else from `stamped`, the stored
    /// bytes. A document scanned with located keys must be given the extractor they were made
    /// for (``locatedKeys(for:)``); only their count is checked here.
    ///
    /// - Throws: `internal` when validated bytes do not extract; `corruption` from `stamped`.
    func indexedEntry(
        id: Int64, stamped: [UInt8], extractor: JSONFieldExtractor, soupName: String
    ) throws(StockpotError) -> IndexedEntry {
        guard case .bytes(let bytes, let scan) = self, scan.locatedCount > 0,
            scan.locatedCount == extractor.rootKeys?.count
        else {
            return try SoupState.indexedEntry(id: id, document: stamped, extractor: extractor, soupName: soupName)
        }
        var values: [IndexValue] = []
        var failure: JSONError?
        bytes.withUnsafeBytes { raw in
            do throws(JSONError) {
                try extractor.extractIndexValues(from: raw, locatedValue: { scan.locatedValue($0) }, into: &values)
            } catch {
                failure = error
            }
        }
        if let failure { throw StockpotError(.internal, "A validated document does not extract: \(failure).") }
        return IndexedEntry(id: id, values: values)
    }

    /// Whether the document is a JSON object.
    var isObject: Bool {
        switch self {
        case .object: true
        case .bytes(_, let scan): scan.isObject
        }
    }

    /// Whether upsert inserts the document as a new entry without error from its system
    /// fields: a JSON object whose `_soupEntryId` is absent or null and whose
    /// `_soupLastModifiedDate` is absent, null or an integer.
    var isNewEntry: Bool {
        guard isObject else { return false }
        do {
            guard try systemInteger(SystemField.entryID, position: 0) == nil else { return false }
            _ = try systemInteger(SystemField.lastModified, position: 0)
            return true
        } catch {
            return false
        }
    }

    /// The integer value of the system field `field` (`_soupEntryId` or
    /// `_soupLastModifiedDate`); nil when absent or null.
    ///
    /// - Throws: `invalid_entry` when it holds anything but an integer or null.
    func systemInteger(_ field: String, position: Int) throws(StockpotError) -> Int64? {
        let found: JSONMemberKind?
        switch self {
        case .object(let object):
            switch object[field] {
            case nil: found = nil
            case .null?: found = .null
            case .integer(let value)?: found = .integer(value)
            default: found = .other
            }
        case .bytes(_, let scan):
            found = field == SystemField.entryID ? scan.entryID : scan.lastModified
        }
        switch found {
        case nil, .null?: return nil
        case .integer(let value)?: return value
        case .other?: throw StockpotError(.invalidEntry, "Entry \(position) of the batch has a \(field) that is not an integer.")
        }
    }

    /// The value `extractor`'s one field (an index spec's path and type) holds for the document.
    func indexValue(_ extractor: JSONFieldExtractor) throws(StockpotError) -> IndexValue {
        switch self {
        case .object(let object):
            let field = extractor.fields[0]
            return IndexValue(document: .object(object), path: field.path, type: field.type)
        case .bytes(let bytes, _):
            var failure: JSONError?
            var values: [IndexValue] = []
            bytes.withUnsafeBytes { raw in
                do throws(JSONError) {
                    try extractor.extractIndexValues(from: raw, into: &values)
                } catch {
                    failure = error
                }
            }
            if let failure { throw StockpotError(.internal, "A validated document does not extract: \(failure).") }
            return values[0]
        }
    }

    /// The stored bytes: compact JSON with `_soupEntryId` and `_soupLastModifiedDate` set
    /// (replaced where present, appended where not), and the document as a value when it was
    /// given as one.
    func stamped(entryID: Int64, lastModified: Int64) throws(StockpotError) -> (bytes: [UInt8], value: JSONValue?) {
        switch self {
        case .object(var object):
            object[SystemField.entryID] = .integer(entryID)
            object[SystemField.lastModified] = .integer(lastModified)
            let value = JSONValue.object(object)
            return (JSONWriter.write(value), value)
        case .bytes(let bytes, let scan):
            do {
                let stamped: Result<[UInt8], JSONError> = bytes.withUnsafeBytes { raw in
                    Result { () throws(JSONError) -> [UInt8] in
                        try scan.stamped(raw, entryID: entryID, lastModified: lastModified)
                    }
                }
                return (try stamped.get(), nil)
            } catch {
                throw StockpotError(.internal, "A validated document cannot be stamped: \(error).")
            }
        }
    }
}
