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
        var nodes = [ExtractorNode(key: [])]
        for (fieldIndex, field) in fields.enumerated() {
            var node = 0
            for (depth, component) in field.path.components.enumerated() {
                let rest = JSONPath(components: Array(field.path.components[depth...]))
                nodes[node].fieldsBelow.append((fieldIndex, rest))
                let key = Array(component.utf8)
                if let child = nodes[node].children.first(where: { nodes[$0].key == key }) {
                    node = child
                } else {
                    nodes.append(ExtractorNode(key: key))
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
        var values = [IndexValue](repeating: .null, count: fields.count)
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw JSONError(.unexpectedEnd, at: 0, "The document is empty.")
        }
        var scanner = FieldScanner(
            cursor: JSONByteCursor(base: base, count: bytes.count, limits: .default),
            trie: trie, fields: fields)
        try scanner.scanDocument(into: &values)
        return values
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
    var children: [Int] = []
    var fieldsBelow: [(field: Int, rest: JSONPath)] = []
    var endsHere = false
}
