// Index specs as the exec protocol writes them: `{"path": string, "type": string}` plus an
// optional `"unique": true` and `"default": "newid"`; types matched ignoring case and reported
// in lower case.

import Stockpot
import StockpotJSON

extension IndexSpec {
    /// Reads the specs in the argument `name` of a request.
    ///
    /// - Throws: `no_index_specs` when the argument is missing or empty; `bad_request` when it
    ///   or a spec member has the wrong JSON type or `path` or `type` is missing;
    ///   `invalid_index_spec` for an unknown type. Empty, repeated and overlong paths are the
    ///   store's to reject.
    static func decodeList(_ name: String, from arguments: ArgumentReader) throws(StockpotError) -> [IndexSpec] {
        guard let list = try arguments.optionalArray(name), !list.isEmpty else {
            throw StockpotError(.noIndexSpecs, "The argument \"\(name)\" must list at least one index spec.")
        }
        var specs: [IndexSpec] = []
        specs.reserveCapacity(list.count)
        for (position, element) in list.enumerated() {
            let label = "\(name)[\(position)]"
            guard let object = element.objectValue else {
                throw arguments.wrongType(label, "an object with \"path\" and \"type\"", element)
            }
            let spec = ArgumentReader(object, prefix: arguments.prefix + label + ".")
            let path = try spec.string("path")
            let typeName = try spec.string("type")
            guard let type = IndexType(parsing: typeName) else {
                throw StockpotError(
                    .invalidIndexSpec,
                    "The index type \"\(typeName)\" of path \"\(path)\" is unknown; use string, integer, floating, full_text or json1.")
            }
            var defaultValue: IndexDefault?
            if let given = try spec.optionalString("default") {
                guard let known = IndexDefault(rawValue: given) else {
                    throw StockpotError(
                        .invalidIndexSpec, "The default \"\(given)\" of path \"\(path)\" is unknown; the one default is \"newid\".")
                }
                defaultValue = known
            }
            specs.append(IndexSpec(path: path, type: type, unique: try spec.bool("unique", default: false), default: defaultValue))
        }
        return specs
    }

    /// The spec as the protocol reports it: `path`, lower-case `type`, `unique` and `default`
    /// when set.
    var jsonValue: JSONValue {
        var object = JSONObject()
        object["path"] = .string(path)
        object["type"] = .string(type.rawValue)
        if unique { object["unique"] = .bool(true) }
        if let defaultValue { object["default"] = .string(defaultValue.rawValue) }
        return .object(object)
    }
}
