// Where a soup's syncs have got to: the sync down watermark (a server transaction id) with
// the filter it was taken under, and the change feed sequence sync up has handled.

import StockpotJSON

/// The per-soup positions of sync, one document of the sync soup.
package struct SoupCursor: Sendable, Equatable {
    /// The soup.
    package var soup: String
    /// Every server row written by a transaction below this id has been applied (0: none).
    package var watermark: UInt64 = 0
    /// The filter the watermark holds for (changing it starts sync down from scratch).
    package var filter: JSONValue?
    /// Every local change at or below this store sequence has been sent or found synced.
    package var upSequence: UInt64 = 0
    /// When the last sync down and up finished, ms since the epoch (0: never).
    package var lastDownAt: Int64 = 0
    package var lastUpAt: Int64 = 0

    package init(soup: String) { self.soup = soup }

    func document() -> JSONValue {
        .object(
            JSONObject([
                (SyncStateStore.lookupPath, .string(SyncStateStore.cursorLookup(soup: soup))),
                ("soup", .string(soup)), ("watermark", .string(String(watermark))), ("filter", filter ?? .null),
                ("upSequence", .integer(Int64(bitPattern: upSequence))),
                ("lastDownAt", .integer(lastDownAt)), ("lastUpAt", .integer(lastUpAt)),
            ]))
    }

    init?(document: JSONValue) {
        guard case .object(let object) = document, case .string(let soup)? = object["soup"],
            case .string(let watermark)? = object["watermark"], let mark = UInt64(watermark),
            case .integer(let up)? = object["upSequence"]
        else { return nil }
        self.soup = soup
        self.watermark = mark
        if let filter = object["filter"], case .object = filter { self.filter = filter } else { self.filter = nil }
        self.upSequence = UInt64(bitPattern: up)
        self.lastDownAt = object["lastDownAt"]?.integerValue ?? 0
        self.lastUpAt = object["lastUpAt"]?.integerValue ?? 0
    }
}
