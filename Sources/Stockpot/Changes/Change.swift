// What the change feed hands out (docs/changes.md): one change per entry changed or deleted,
// or per soup cleared or removed, in sequence order, a page at a time.

import StockpotJSON

/// One change of the change feed.
public struct Change: Sendable {
    /// What happened.
    public enum Operation: String, Sendable, Hashable {
        /// The entry was inserted or replaced; ``Change/document`` is its current document.
        case upsert
        /// The entry was deleted; ``Change/key`` is its key, when it had one.
        case delete
        /// Every entry of the soup was deleted (`clearSoup`).
        case clear
        /// The soup was removed.
        case removeSoup
    }

    /// The change's sequence number: for an upsert, that of the entry's last change.
    public var sequence: UInt64
    /// The soup's name.
    public var soupName: String
    public var operation: Operation
    /// The entry's id, for an upsert or a delete.
    public var entryID: Int64?
    /// The entry's current document, for an upsert.
    public var document: JSONValue?
    /// A deleted entry's key: its value at the soup's `newid` path, else at the external id
    /// path it was upserted with; `nil` when it had none.
    public var key: JSONValue?
}

/// One page of the change feed.
public struct ChangePage: Sendable {
    /// The changes, in ascending sequence order.
    public var changes: [Change]
    /// The sequence of the last change in ``changes``, or the `since` asked for when there is
    /// none: where the next page starts.
    public var lastSequence: UInt64
    /// Whether changes after ``lastSequence`` remain (as of the view the page was read from).
    public var hasMore: Bool
}
