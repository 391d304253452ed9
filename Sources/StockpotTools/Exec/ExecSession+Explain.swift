// The exec protocol's version 2 operations that describe rather than change: `hello` (the
// protocol, library and format versions) and `explainQuery` (how a query spec or a Smart SQL
// statement runs).

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
    /// `{"soups": [{"soup", "access", "order", "unindexedPaths", "emptyPaths"}]}`; with a smart
    /// spec (no `soupName` needed): `{"plan": [{"id", "parent", "detail"}]}`, the lines of
    /// `EXPLAIN QUERY PLAN` (docs/protocol.md, "explainQuery").
    func explainQuery(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let spec = try Self.querySpec(arguments)
        if spec.queryType == .smart {
            guard let statement = spec.smartSql else {
                throw StockpotError(.invalidQuery, "A smart query needs the statement in querySpec.smartSql.")
            }
            let lines = try store.view().explain(smartSQL: statement, arguments: try Self.smartArguments(arguments))
            var object = JSONObject()
            object["plan"] = .array(
                lines.map { line in
                    .object(
                        JSONObject([("id", .integer(Int64(line.id))), ("parent", .integer(Int64(line.parent))), ("detail", .string(line.detail))]))
                })
            return .object(object)
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
