// Response lines of the exec protocol: compact JSON written with StockpotJSON.JSONWriter,
// `{"id":...,"ok":true,"result":...}` or `{"id":...,"ok":false,"error":{"code","message"}}`.

import Stockpot
import StockpotJSON

/// Builds response lines, each ending in `\n`.
enum Response {
    /// The line for a request that succeeded.
    static func success(id: JSONValue, result: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        appendASCII("{\"id\":", to: &output)
        JSONWriter.append(id, to: &output)
        appendASCII(",\"ok\":true,\"result\":", to: &output)
        JSONWriter.append(result, to: &output)
        appendASCII("}\n", to: &output)
        return output
    }

    /// The line for a request that failed.
    static func failure(id: JSONValue, error: StockpotError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(128)
        appendASCII("{\"id\":", to: &output)
        JSONWriter.append(id, to: &output)
        appendASCII(",\"ok\":false,\"error\":{\"code\":", to: &output)
        JSONWriter.appendString(error.code.rawValue, to: &output)
        appendASCII(",\"message\":", to: &output)
        JSONWriter.appendString(error.message, to: &output)
        appendASCII("}}\n", to: &output)
        return output
    }

    private static func appendASCII(_ text: StaticString, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
