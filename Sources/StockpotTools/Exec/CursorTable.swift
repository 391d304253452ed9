// The cursors of one exec session: what query each open cursor id stands for.

import Stockpot
import StockpotJSON

/// Open cursors by id. A cursor keeps its soup and spec, never results: moving it runs the
/// query again. Ids start at 1 and are never reused within a session. Not thread-safe.
struct CursorTable {
    /// What a cursor stands for.
    struct Cursor {
        /// The soup queried; `nil` for a smart query, which names its soups itself.
        var soup: String?
        /// The query.
        var spec: QuerySpec
        /// The values of a smart query's `?` placeholders.
        var arguments: [JSONValue] = []
    }

    private var cursors: [Int64: Cursor] = [:]
    private var nextId: Int64 = 1

    /// Opens a cursor and returns its id.
    mutating func open(_ cursor: Cursor) -> Int64 {
        let id = nextId
        nextId += 1
        cursors[id] = cursor
        return id
    }

    /// The open cursor `id`.
    ///
    /// - Throws: `cursor_not_found` when it is unknown or closed.
    func cursor(_ id: Int64) throws(StockpotError) -> Cursor {
        guard let cursor = cursors[id] else { throw Self.notFound(id) }
        return cursor
    }

    /// Closes the cursor `id`.
    ///
    /// - Throws: `cursor_not_found` when it is unknown or already closed.
    mutating func close(_ id: Int64) throws(StockpotError) {
        guard cursors.removeValue(forKey: id) != nil else { throw Self.notFound(id) }
    }

    private static func notFound(_ id: Int64) -> StockpotError {
        StockpotError(.cursorNotFound, "No open cursor has the id \(id).")
    }
}
