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

    /// Prepares an extractor for `fields`.
    public init(fields: [IndexField]) {
        self.fields = fields
        var nodes = [ExtractorNode(key: [], keyPrefix: 0)]
        for (fieldIndex, field) in fields.enumerated() {
            var node = 0
            for (depth, component) in field.path.components.enumerated() {
                let rest = JSONPath(components: Array(field.path.components[depth...]))
                nodes[node].fieldsBelow.append((fieldIndex, rest))
                let key = Array(component.utf8)
                if let child = nodes[node].children.first(where: { nodes[$0].key == key }) {
                    node = child
                } else {
                    nodes.append(ExtractorNode(key: key, keyPrefix: littleEndianPrefix(of: key)))
                    nodes[node].children.append(nodes.count - 1)
                    node = nodes.count - 1
                }
            }
            nodes[node].fieldsBelow.append((fieldIndex, JSONPath(components: [])))
            nodes[node].endsHere = true
        }
        trie = nodes
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
        values.removeAll(keepingCapacity: true)
        values.append(contentsOf: repeatElement(.null, count: fields.count))
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw JSONError(.unexpectedEnd, at: 0, "The document is empty.")
        }
        var scanner = FieldScanner(
            cursor: JSONByteCursor(base: base, count: bytes.count, limits: .default),
            trie: trie, fields: fields)
        try scanner.scanDocument(into: &values)
    }

    /// The index value of each field in the document `bytes`.
    public func indexValues(in bytes: [UInt8]) throws(JSONError) -> [IndexValue] {
        let result: Result<[IndexValue], JSONError> = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONError) -> [IndexValue] in try indexValues(in: raw) }
        }
        return try result.get()
    }
}

/// The first eight bytes of `key` (zero-padded) as a little-endian integer.
func littleEndianPrefix(of key: some Collection<UInt8>) -> UInt64 {
    var prefix: UInt64 = 0
    for (position, byte) in key.prefix(8).enumerated() {
        prefix |= UInt64(byte) << (8 * UInt64(position))
    }
    return prefix
}

/// One key of the path trie: the children to look for below it, and every field whose path
/// passes through it with the rest of that path.
struct ExtractorNode: Sendable {
    var key: [UInt8]
    /// The key's first eight bytes, zero-padded, read as a little-endian integer: most keys are
    /// told apart by this and their length without touching `key`.
    var keyPrefix: UInt64
    var children: [Int] = []
    var fieldsBelow: [(field: Int, rest: JSONPath)] = []
    var endsHere = false
}
