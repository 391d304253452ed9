// Top-level members of a request kept as JSON text (a slice of the request line) rather than
// read into a value tree: an `upsertSoupEntries` line's entries, so that a write request's
// memory stays a small multiple of its size (docs/protocol.md, "Limits").

import StockpotJSON

/// Request members held as text, checked already by the scan of the whole line.
///
/// A value type over a shared line buffer; not thread-safe to mutate, safe to copy.
struct DeferredMembers {
    /// The members kept as text: the request members the exec reads as bytes.
    static let names = ["entries"]

    /// The request line the texts are slices of, and where each member's value is.
    private var line: [UInt8] = []
    private var spans: [String: Range<Int>] = [:]
    /// The limits the line was checked with; a deferred member is read with them.
    private var limits = JSONLimits.default

    init() {}

    /// Members `names[i]` whose value in `line` is an array at `spans[i]`.
    init(line: [UInt8], spans: [String: Range<Int>], limits: JSONLimits) {
        self.line = line
        self.spans = spans
        self.limits = limits
    }

    /// The text of member `name`, or `nil` when it is not deferred.
    func text(_ name: String) -> ArraySlice<UInt8>? {
        spans[name].map { line[$0] }
    }

    /// The member `name` read into a value, or `nil` when it is not deferred. The text was
    /// accepted by the scan of the whole line under the same limits, so reading it cannot
    /// fail; were it to, the member reads as absent rather than trapping.
    func value(_ name: String) -> JSONValue? {
        guard let text = text(name) else { return nil }
        return try? JSONReader.parse(Array(text), limits: limits)
    }

    /// The ranges of the elements of the deferred array `name` in ``line``; `nil` when the
    /// member is not deferred.
    func elementRanges(_ name: String) -> [Range<Int>]? {
        guard let text = text(name) else { return nil }
        return try? JSONDocumentScanner.elementRanges(ofArray: text, limits: limits)
    }

    /// The text of `range`, one of ``elementRanges(_:)``: a slice of the line, not a copy.
    func bytes(_ range: Range<Int>) -> ArraySlice<UInt8> {
        line[range]
    }
}
