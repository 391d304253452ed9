// The index specs of the benchmark's Account soup, shared by the SQLite baseline, the JSON
// extraction workload and (later) the store workloads, so every side indexes the same paths.

import StockpotJSON

/// A soup index spec: a dotted path and the type of index kept on it.
struct SoupIndexSpec: Sendable {
    let path: String
    let type: IndexType
    /// The path split on `.`, SmartStore's only path syntax.
    let components: [String]
    /// The path as StockpotJSON parses it.
    let jsonPath: JSONPath

    init(path: String, type: IndexType) {
        self.path = path
        self.type = type
        components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        jsonPath = JSONPath(path)
    }

    /// The same spec as a StockpotJSON ``IndexField``.
    var indexField: IndexField { IndexField(path: jsonPath, type: type) }
}

/// The soup every store workload and the SQLite baseline use.
enum AccountSoup {
    static let name = "accounts"

    /// Nine specs covering every index type, in SmartStore column order (`TABLE_1_0` ...).
    static let indexSpecs = [
        SoupIndexSpec(path: "Id", type: .string),
        SoupIndexSpec(path: "Name", type: .fullText),
        SoupIndexSpec(path: "Industry", type: .string),
        SoupIndexSpec(path: "BillingCity", type: .string),
        SoupIndexSpec(path: "NumberOfEmployees", type: .integer),
        SoupIndexSpec(path: "AnnualRevenue", type: .floating),
        SoupIndexSpec(path: "Tags", type: .string),
        SoupIndexSpec(path: "Description", type: .fullText),
        SoupIndexSpec(path: "attributes.type", type: .json1),
    ]

    /// The five fields `json.extract` pulls from raw bytes: one of each kind of access
    /// (full-text string, plain strings, an integer, a nested json1 path).
    static let extractedFields = [
        SoupIndexSpec(path: "Name", type: .fullText),
        SoupIndexSpec(path: "Industry", type: .string),
        SoupIndexSpec(path: "BillingCity", type: .string),
        SoupIndexSpec(path: "NumberOfEmployees", type: .integer),
        SoupIndexSpec(path: "attributes.type", type: .json1),
    ]
}
