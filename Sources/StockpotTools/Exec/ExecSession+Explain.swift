// The exec protocol's version 2 operations that describe rather than change: `hello` (the
// protocol, library and format versions) and `explainQuery` (how a query spec runs).

import Stockpot
import StockpotJSON

extension ExecSession {
    /// `hello`: `{"protocol": 2, "library": "0.2.0", "formats": {...}}`.
    func hello() -> JSONValue {
        var formats = JSONObject()
        for (format, version) in StockpotVersion.formats { formats[format] = .integer(Int64(version)) }
        formats["dump"] = .integer(DumpFormat.version)
        var object = JSONObject()
        object["protocol"] = .integer(Int64(StockpotVersion.execProtocol))
        object["library"] = .string(StockpotVersion.library)
        object["formats"] = .object(formats)
        return .object(object)
    }

    /// `explainQuery` with `soupName` and a `querySpec` that is not smart:
    /// `{"soups": [{"soup", "access", "order", "unindexedPaths", "emptyPaths"}]}`
    /// (docs/protocol.md, "explainQuery"). A smart spec is `invalid_query` (not explained yet).
    func explainQuery(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let spec = try Self.querySpec(arguments)
        guard spec.queryType != .smart else {
            throw StockpotError(.invalidQuery, "explainQuery explains query specs; Smart SQL statements are not explained yet.")
        }
        let name = try soupName(arguments)
        guard let query = Query(spec) else {
            throw StockpotError(.invalidQuery, "The \(spec.queryType.rawValue) query spec lacks its path or key.")
        }
        let explanation = try store.view().explain(query, in: name)
        var soup = JSONObject()
        soup["soup"] = .string(name)
        soup["access"] = .string(explanation.access)
        soup["order"] = .string(explanation.ordering)
        soup["unindexedPaths"] = .array(explanation.unindexedPaths.map { .string($0) })
        soup["emptyPaths"] = .array(explanation.emptyPaths.map { .string($0) })
        var object = JSONObject()
        object["soups"] = .array([.object(soup)])
        return .object(object)
    }
}
