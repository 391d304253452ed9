// How a table's fields are read from a stored entry, worked out once when the statement is
// bound (the field extractor is costly to build) and shared by every run of it.

import StockpotIndex
import StockpotJSON

/// Where each field of a table's rows comes from. Immutable; shared across runs and threads.
struct SQLRowReading: Sendable {
    /// Where one field's value comes from.
    enum Source {
        case entryID
        case created
        case document
        /// Value `i` of the extractor's pass over the document.
        case extracted(Int)
    }

    /// Extracts every path field (specs, json paths, `_soupLastModifiedDate`) in one pass.
    let extractor: JSONFieldExtractor
    /// For each field, where its value comes from.
    let sources: [Source]
    /// Whether any field needs the stored record (not only the id).
    let needsRecord: Bool
    /// Per field: whether any other field needs the stored record.
    let needsRecordBesides: [Bool]

    init(_ table: BoundTable) {
        var indexFields: [IndexField] = []
        var sources: [Source] = []
        for field in table.fields {
            switch field {
            case .entryID:
                sources.append(.entryID)
            case .created:
                sources.append(.created)
            case .document:
                sources.append(.document)
            case .lastModified:
                indexFields.append(IndexField(path: JSONPath("_soupLastModifiedDate"), type: .json1))
                sources.append(.extracted(indexFields.count - 1))
            case .json(let path):
                indexFields.append(IndexField(path: JSONPath(path), type: .json1))
                sources.append(.extracted(indexFields.count - 1))
            case .spec(let position):
                indexFields.append(IndexField(path: JSONPath(table.schema.paths[position]), type: table.schema.types[position]))
                sources.append(.extracted(indexFields.count - 1))
            }
        }
        extractor = JSONFieldExtractor(fields: indexFields)
        self.sources = sources
        let needs = sources.map { source -> Bool in if case .entryID = source { return false } else { return true } }
        needsRecord = needs.contains(true)
        needsRecordBesides = needs.indices.map { field in needs.indices.contains { $0 != field && needs[$0] } }
    }
}
