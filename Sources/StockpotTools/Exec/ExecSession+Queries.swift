// The query operations of the exec protocol: querySoup, runSmartQuery, countQuery,
// moveCursorToPageIndex and closeCursor, and the cursor's JSON shape.

import Stockpot
import StockpotJSON

extension ExecSession {
    mutating func querySoup(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let name = try soupName(arguments)
        return try openCursor(CursorTable.Cursor(soup: name, spec: try Self.querySpec(arguments)))
    }

    mutating func runSmartQuery(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let spec = try Self.querySpec(arguments)
        guard spec.queryType == .smart else {
            throw StockpotError(
                .invalidQuery,
                "runSmartQuery needs a querySpec with queryType \"smart\", not \"\(spec.queryType.rawValue)\"; use querySoup.")
        }
        return try openCursor(CursorTable.Cursor(soup: nil, spec: spec, arguments: try Self.smartArguments(arguments)))
    }

    func countQuery(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let name = try arguments.optionalString("soupName")
        let spec = try Self.querySpec(arguments)
        guard name != nil || spec.queryType == .smart else {
            throw StockpotError(
                .invalidSoupName, "The argument \"soupName\" is missing; only a smart query may omit it.")
        }
        let cursor = CursorTable.Cursor(
            soup: spec.queryType == .smart ? nil : name, spec: spec, arguments: try Self.smartArguments(arguments))
        return .integer(Int64(try count(cursor)))
    }

    func moveCursorToPageIndex(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        let id = try arguments.integer("cursorId")
        let requested = try arguments.integer("index")
        let cursor = try cursors.cursor(id)
        // One run of the query for an index in range; a page past the end is read again at
        // the last page (the store may have changed since the cursor was opened).
        var index = Int(clamping: max(requested, 0))
        var page = try page(index, of: cursor)
        let last = max(Self.pageCount(entries: page.totalEntries, pageSize: cursor.spec.pageSize) - 1, 0)
        if index > last {
            index = last
            page = try self.page(index, of: cursor)
        }
        return Self.cursorValue(id: id, spec: cursor.spec, pageIndex: index, page: page)
    }

    mutating func closeCursor(_ arguments: ArgumentReader) throws(StockpotError) -> JSONValue {
        try cursors.close(try arguments.integer("cursorId"))
        return .null
    }

    /// Reads the `querySpec` argument and checks `args` against it.
    ///
    /// - Throws: `bad_request` or `invalid_query` for the spec; `where_args_not_allowed` when
    ///   `args` is given with a query that is not smart.
    static func querySpec(_ arguments: ArgumentReader) throws(StockpotError) -> QuerySpec {
        let spec = try QuerySpec(decoding: try arguments.object("querySpec"))
        if try arguments.optionalArray("args") != nil, spec.queryType != .smart {
            throw StockpotError(
                .whereArgsNotAllowed,
                "The argument \"args\" is allowed only with a smart query, not with queryType \"\(spec.queryType.rawValue)\".")
        }
        return spec
    }

    /// Runs the query of a new cursor, opens the cursor, and returns it on page 0.
    private mutating func openCursor(_ cursor: CursorTable.Cursor) throws(StockpotError) -> JSONValue {
        let first = try page(0, of: cursor)
        let id = cursors.open(cursor)
        return Self.cursorValue(id: id, spec: cursor.spec, pageIndex: 0, page: first)
    }

    /// One page of a cursor's query. A Smart SQL statement checks the request's deadline
    /// as it runs; any query checks it once done (before a cursor is opened on it).
    private func page(_ index: Int, of cursor: CursorTable.Cursor) throws(StockpotError) -> QueryPage {
        try checkDeadline()
        let page: QueryPage
        if let soup = cursor.soup {
            page = try store.query(cursor.spec, in: soup, page: index)
        } else {
            page = try store.smartQuery(
                try Self.statement(of: cursor), arguments: cursor.arguments, page: index, pageSize: cursor.spec.pageSize,
                budget: queryBudget)
        }
        try checkDeadline()
        return page
    }

    private func count(_ cursor: CursorTable.Cursor) throws(StockpotError) -> Int {
        try checkDeadline()
        let count: Int
        if let soup = cursor.soup {
            count = try store.count(cursor.spec, in: soup)
        } else {
            count = try store.smartCount(try Self.statement(of: cursor), arguments: cursor.arguments, budget: queryBudget)
        }
        try checkDeadline()
        return count
    }

    /// The Smart SQL statement of a smart cursor's spec.
    private static func statement(of cursor: CursorTable.Cursor) throws(StockpotError) -> String {
        guard let statement = cursor.spec.smartSql else {
            throw StockpotError(.invalidQuery, "A smart query needs the statement in querySpec.smartSql.")
        }
        return statement
    }

    /// The `args` of a smart query (none when absent).
    static func smartArguments(_ arguments: ArgumentReader) throws(StockpotError) -> [JSONValue] {
        try arguments.optionalArray("args") ?? []
    }

    /// `ceil(entries / pageSize)`, without overflow for any page size.
    static func pageCount(entries: Int, pageSize: Int) -> Int {
        entries == 0 ? 0 : (entries - 1) / pageSize + 1
    }

    /// A cursor as the protocol shows it.
    static func cursorValue(id: Int64, spec: QuerySpec, pageIndex: Int, page: QueryPage) -> JSONValue {
        var object = JSONObject()
        object["cursorId"] = .integer(id)
        object["pageSize"] = .integer(Int64(spec.pageSize))
        object["totalEntries"] = .integer(Int64(page.totalEntries))
        object["totalPages"] = .integer(Int64(pageCount(entries: page.totalEntries, pageSize: spec.pageSize)))
        object["currentPageIndex"] = .integer(Int64(pageIndex))
        object["currentPageOrderedEntries"] = .array(page.rows)
        return .object(object)
    }
}
