// The soup operations of the exec protocol: registerSoup, soupExists, getSoupIndexSpecs,
// alterSoup, reIndexSoup, clearSoup, removeSoup (getAllSoupNames is inline in ExecSession).
// Each change runs in one transaction that commits only within the request's deadline.

import Stockpot
import StockpotJSON

extension ExecSession {
    func registerSoup(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let name = try soupName(arguments)
        let specs = try IndexSpec.decodeList("indexSpecs", from: arguments)
        try write { (transaction) throws(StockpotError) in try transaction.registerSoup(name, indexSpecs: specs) }
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
        try write { (transaction) throws(StockpotError) in
            try transaction.alterSoup(name, indexSpecs: specs, reIndexData: reIndex)
        }
        return .string(name)
    }

    func reIndexSoup(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let name = try soupName(arguments)
        let paths = try arguments.strings("paths")
        try write { (transaction) throws(StockpotError) in try transaction.reIndexSoup(name, paths: paths) }
        return .null
    }

    func clearSoup(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let name = try soupName(arguments)
        try write { (transaction) throws(StockpotError) in try transaction.clearSoup(name) }
        return .null
    }

    func removeSoup(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let name = try soupName(arguments)
        try write { (transaction) throws(StockpotError) in try transaction.removeSoup(name) }
        return .null
    }
}
