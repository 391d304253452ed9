// What every exec response line must be, whatever the request line was: one line of JSON,
// the request's id (or null), and either a result or an error code the protocol documents.

import StockpotJSON

/// Checks one exec response against the request line it answers.
package enum ExecResponseCheck {
    /// The error codes the protocol documents (`StockpotError.Code`), `internal` excluded:
    /// no request line may reach it.
    package static let documentedCodes: Set<String> = [
        "bad_request", "unknown_op", "invalid_soup_name", "no_index_specs", "invalid_index_spec",
        "soup_not_found", "invalid_entry", "entry_not_found", "external_id_not_indexed",
        "external_id_missing", "external_id_not_unique", "unique_violation", "invalid_query",
        "smart_sql_syntax", "read_only_statement", "where_args_not_allowed", "cursor_not_found",
        "limit_exceeded", "store_locked", "store_closed", "invalid_store_name", "io_error", "corruption",
    ]

    /// The id a response to `line` must carry: the request object's `id`, or null when the
    /// line is not an object (or not JSON within `limits`).
    package static func expectedID(of line: [UInt8], limits: JSONLimits) -> JSONValue {
        guard case .object(let object)? = try? JSONReader.parse(line, limits: limits) else { return .null }
        return object["id"] ?? .null
    }

    /// Nil when `response` is a valid answer to `line`, else what is wrong with it.
    ///
    /// - Returns: the error code of a failure response in `code` (nil for a success).
    package static func problem(
        response: [UInt8], line: [UInt8], limits: JSONLimits, code: inout String?
    ) -> String? {
        code = nil
        guard response.last == UInt8(ascii: "\n"), response.firstIndex(of: UInt8(ascii: "\n")) == response.count - 1 else {
            return "the response is not exactly one line"
        }
        guard case .object(let object)? = try? JSONReader.parse(Array(response.dropLast())) else {
            return "the response is not a JSON object"
        }
        guard let id = object["id"] else { return "the response has no id" }
        let expected = expectedID(of: line, limits: limits)
        guard id == expected else { return "the response's id \(id.jsonText) is not the request's \(expected.jsonText)" }
        switch (object["ok"], object["result"], object["error"]) {
        case (.bool(true)?, _?, nil):
            return nil
        case (.bool(false)?, nil, .object(let error)?):
            guard case .string(let name)? = error["code"], case .string? = error["message"] else {
                return "the error has no string code and message"
            }
            code = name
            return documentedCodes.contains(name) ? nil : "the error code \(name) is not a documented one"
        default:
            return "the response is neither a result nor an error"
        }
    }
}
