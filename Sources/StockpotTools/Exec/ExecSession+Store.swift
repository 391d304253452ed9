// The store operations of the exec protocol: stats and compact, as one JSON object.

import Stockpot
import StockpotJSON

extension ExecSession {
    /// The statistics object `stats` and `compact` return.
    static func statsValue(_ stats: StoreStats) -> JSONValue {
        var object = JSONObject()
        object["soups"] = .integer(Int64(stats.soups))
        object["entries"] = .integer(Int64(stats.entries))
        object["dataBytes"] = .integer(Int64(stats.dataBytes))
        object["liveBytes"] = .integer(Int64(stats.liveBytes))
        object["blobBytes"] = .integer(Int64(stats.blobBytes))
        object["segments"] = .integer(Int64(stats.segments))
        return .object(object)
    }
}
