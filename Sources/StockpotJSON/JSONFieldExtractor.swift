// The ingestion fast path: the index values of a few paths read straight from a document's
// raw bytes. Only the members on an indexed path are decoded; everything else is skipped.

/// Extracts the index values of a fixed set of fields from raw JSON documents without building
/// the whole tree.
///
/// The result is the same as ``IndexValue/init(document:path:type:)`` on the parsed document
/// for every document ``JSONReader`` accepts. The extractor validates only what it decodes:
/// skipped members are scanned for their extent, not checked, so feed it documents that were
/// validated when they were stored. On a malformed document it throws; it never traps.
/// Immutable and safe to share across threads.
public struct JSONFieldExtractor: Sendable {
    /// The fields, in the order their values are returned.
    public let fields: [IndexField]
    private let trie: [ExtractorNode]
    /// The top-level keys the fields' paths start with, each once, in the order
    /// ``extractIndexValues(from:locatedValue:into:)`` asks for their members; nil when a
    /// field's path is empty (its value is the whole document, which no member gives).
    package let rootKeys: [[UInt8]]?

    /// Prepares an extractor for `fields`.
    public init(fields: [IndexField]) {
        self.fields = fields
        var nodes = [ExtractorNode(key: [])]
        for (fieldIndex, field) in fields.enumerated() {
            var node = 0
            for (depth, component) in field.path.components.enumerated() {
                let rest = JSONPath(components: Array(field.path.components[depth...]))
                nodes[node].fieldsBelow.append((fieldIndex, rest))
                let key = Array(component.utf8)
                if let child = nodes[node].children.first(where: { nodes[$0.node].key == key }) {
                    node = child.node
                } else {
                    nodes.append(ExtractorNode(key: key))
                    nodes[node].children.append(KeySignature(key, node: nodes.count - 1))
                    node = nodes.count - 1
                }
            }
            nodes[node].fieldsBelow.append((fieldIndex, JSONPath(components: [])))
            nodes[node].fieldsEndingHere.append(LeafField(field: fieldIndex, type: field.type))
            nodes[node].endsHere = true
        }
        trie = nodes
        rootKeys = nodes[0].endsHere ? nil : nodes[0].children.map { nodes[$0.node].key }
    }

    /// The index value of each field in the document `bytes`, in the order of ``fields``.
    public func indexValues(in bytes: UnsafeRawBufferPointer) throws(JSONError) -> [IndexValue] {
        var values: [IndexValue] = []
        try extractIndexValues(from: bytes, into: &values)
        return values
    }

    /// Replaces the contents of `values` with the index value of each field in the document
    /// `bytes`, in the order of ``fields``. Reusing one array across documents saves an
    /// allocation per document on the ingestion path.
    public func extractIndexValues(
        from bytes: UnsafeRawBufferPointer, into values: inout [IndexValue]
    ) throws(JSONError) {
        var scanner = try startScan(of: bytes, resetting: &values)
        try scanner.scanDocument(into: &values)
    }

    /// Like ``extractIndexValues(from:into:)`` for a JSON object whose top-level members
    /// named by ``rootKeys`` a validating scan of the same bytes has located already:
    /// `locatedValue(i)` is where the value of the member named `rootKeys[i]` is (nil when
    /// the object has none). The walk over the top-level object is skipped; the values are
    /// the same.
    package func extractIndexValues(
        from bytes: UnsafeRawBufferPointer, locatedValue: (Int) -> Range<Int>?, into values: inout [IndexValue]
    ) throws(JSONError) {
        var scanner = try startScan(of: bytes, resetting: &values)
        try scanner.scanLocatedMembers(locatedValue, into: &values)
    }

    /// A scanner over `bytes`, with `values` reset to one null per field.
    private func startScan(
        of bytes: UnsafeRawBufferPointer, resetting values: inout [IndexValue]
    ) throws(JSONError) -> FieldScanner {
        values.removeAll(keepingCapacity: true)
        values.append(contentsOf: repeatElement(.null, count: fields.count))
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw JSONError(.unexpectedEnd, at: 0, "The document is empty.")
        }
        return FieldScanner(
            cursor: JSONByteCursor(base: base, count: bytes.count, limits: .default),
            trie: trie, fields: fields)
    }

    /// The index value of each field in the document `bytes`.
    public func indexValues(in bytes: [UInt8]) throws(JSONError) -> [IndexValue] {
        let result: Result<[IndexValue], JSONError> = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONError) -> [IndexValue] in try indexValues(in: raw) }
        }
        return try result.get()
    }
}

/// One key of the path trie: the children to look for below it, and every field whose path
/// passes through it with the rest of that path.
struct ExtractorNode: Sendable {
    var key: [UInt8]
    var children: [KeySignature] = []
    var fieldsBelow: [(field: Int, rest: JSONPath)] = []
    /// The fields whose paths end at this key (plain values, for the leaf fast path).
    var fieldsEndingHere: [LeafField] = []
    var endsHere = false
}

/// A field whose path ends at a trie node.
struct LeafField: Sendable {
    var field: Int
    var type: IndexType
}

/// A child key as two little-endian words of its first sixteen bytes (zero-padded) and its
/// length: most keys are matched or told apart with three integer compares.
struct KeySignature: Sendable {
    var low: UInt64
    var high: UInt64
    var length: Int
    var node: Int

    init(_ key: [UInt8], node: Int) {
        low = 0
        high = 0
        for (position, byte) in key.prefix(16).enumerated() {
            if position < 8 {
                low |= UInt64(byte) << (8 * UInt64(position))
            } else {
                high |= UInt64(byte) << (8 * UInt64(position - 8))
            }
        }
        length = key.count
        self.node = node
    }

    /// The signature words of the `length` bytes at `start` (zero-padded past `length`).
    /// Reads sixteen bytes when the buffer has them, so short keys cost two loads.
    @inline(__always)
    static func words(
        _ base: UnsafePointer<UInt8>, _ start: Int, _ length: Int, _ count: Int
    ) -> (UInt64, UInt64) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        if start + 16 <= count {
            low = UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self).littleEndian
            high = UnsafeRawPointer(base + start + 8).loadUnaligned(as: UInt64.self).littleEndian
        } else {
            for position in 0..<min(16, count - start) {
                if position < 8 {
                    low |= UInt64(base[start + position]) << (8 * UInt64(position))
                } else {
                    high |= UInt64(base[start + position]) << (8 * UInt64(position - 8))
                }
            }
        }
        if length < 8 {
            return (low & (UInt64(1) << (8 * UInt64(length)) &- 1), 0)
        }
        if length < 16 {
            return (low, high & (UInt64(1) << (8 * UInt64(length - 8)) &- 1))
        }
        return (low, high)
    }
}
