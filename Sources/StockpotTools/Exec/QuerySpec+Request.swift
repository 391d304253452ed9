// Query specs as the exec protocol writes them (docs/protocol.md, "Queries"): every
// field of the table, with `invalid_query` for an unknown `queryType` or order and a
// `pageSize` below 1, and `bad_request` for a field of the wrong JSON type.

import Stockpot
import StockpotJSON

extension QuerySpec {
    /// Reads a query spec from the members of `fields` (the request's `querySpec` object).
    /// Unknown members are ignored, as SmartStore's bridges send extra ones.
    ///
    /// - Throws: `bad_request` or `invalid_query` as above.
    init(decoding fields: ArgumentReader) throws(StockpotError) {
        let typeName = try fields.string("queryType")
        guard let queryType = QueryType(rawValue: typeName) else {
            throw StockpotError(
                .invalidQuery,
                "The queryType \"\(typeName)\" is unknown; use all, exact, range, like, match or smart.")
        }
        self.init(queryType: queryType)
        indexPath = try fields.optionalString("indexPath")
        // An explicit null is kept (an exact query on null matches nothing, docs/semantics.md);
        // only a missing matchKey is one the query lacks.
        matchKey = fields.object["matchKey"]
        beginKey = fields.value("beginKey")
        endKey = fields.value("endKey")
        likeKey = try fields.optionalString("likeKey")
        orderPath = try fields.optionalString("orderPath")
        if let orderName = try fields.optionalString("order") {
            guard let order = Order(rawValue: orderName) else {
                throw StockpotError(
                    .invalidQuery, "The order \"\(orderName)\" is unknown; use ascending or descending.")
            }
            self.order = order
        }
        if let size = try fields.optionalInteger("pageSize") {
            guard size >= 1 else {
                throw StockpotError(.invalidQuery, "The pageSize is \(size); it must be at least 1.")
            }
            pageSize = Int(size)
        }
        selectPaths = try fields.optionalStrings("selectPaths")
        smartSql = try fields.optionalString("smartSql")
    }
}
