// The soup operations of the exec protocol: registerSoup, soupExists, getSoupIndexSpecs,
// alterSoup, reIndexSoup, clearSoup, removeSoup (getAllSoupNames is inline in ExecSession).

import Stockpot
import StockpotJSON

extension ExecSession {
    func registerSoup(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let name = try soupName(arguments)
        let specs = try IndexSpec.decodeList("indexSpecs", from: arguments)
        try store.registerSoup(name, indexSpecs: specs)
        return .string(name)
    }

    func soupExists(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        .bool(store.soupExists(try soupName(arguments)))
    }

    func soupIndexSpecs(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let specs = try store.indexSpecs(of: try soupName(arguments))
        return .array(specs.map(\.jsonValue))
    }

    func alterSoup(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let name = try soupName(arguments)
        let specs = try IndexSpec.decodeList("indexSpecs", from: arguments)
        let reIndex = try arguments.bool("reIndexData", default: true)
        try store.alterSoup(name, indexSpecs: specs, reIndexData: reIndex)
        return .string(name)
    }

    func reIndexSoup(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let name = try soupName(arguments)
        try store.reIndexSoup(name, paths: try arguments.strings("paths"))
        return .null
    }

    func clearSoup(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        try store.clearSoup(try soupName(arguments))
        return .null
    }

    func removeSoup(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        try store.removeSoup(try soupName(arguments))
        return .null
    }
}
