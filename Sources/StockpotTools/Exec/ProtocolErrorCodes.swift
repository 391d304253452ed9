// The error codes only the exec protocol produces (docs/protocol.md, "Error codes"): the
// library never throws them, so they are defined here, beside the protocol, not in Stockpot.

import Stockpot

extension StockpotError.Code {
    /// A request line is not a JSON object, or an argument is missing or mistyped.
    package static let badRequest = StockpotError.Code(rawValue: "bad_request")
    /// `op` names no operation.
    package static let unknownOp = StockpotError.Code(rawValue: "unknown_op")
    /// `args` given with a query that is not a smart query.
    package static let whereArgsNotAllowed = StockpotError.Code(rawValue: "where_args_not_allowed")
    /// A cursor id is unknown or closed.
    package static let cursorNotFound = StockpotError.Code(rawValue: "cursor_not_found")
}
