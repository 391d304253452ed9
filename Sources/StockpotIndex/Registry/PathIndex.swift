// The public protocol of a registered index kind (docs/indexes.md): an extra index over one
// spec's values, kept by the store beside the spec's ordered index, saved in store snapshots
// and offered to the query planner, which uses it when its cost estimate is the lowest.

import StockpotJSON

/// A condition on one path that an index may answer. Values are those of the spec's `type`
/// (text for `string`, integers for `integer`, ...), compared as the ordered index compares
/// them (``IndexValue``'s order and equality); a query never asks for null. Asked by query
/// specs (`exact`, `range`, `like`) and by Smart SQL (an equality on the spec's column).
public enum IndexOperation: Sendable, Hashable {
    /// The entries whose value equals this one (an `exact` query).
    case equal(IndexValue)
    /// The entries whose value lies between the bounds, both inclusive; nil is open (a
    /// `range` query). Null values never match.
    case between(IndexValue?, IndexValue?)
    /// The entries whose value matches a LIKE pattern (a `like` query):
    /// ``LikeCondition/matches(_:)`` decides each value.
    case like(LikeCondition)
}

/// An index kind that callers add to a store: a type conforming to this protocol, registered
/// with ``IndexKinds/register(_:)`` under ``kindName``, and named by an index spec's `kind`.
///
/// The store keeps one instance per spec that names the kind: every entry's value at the
/// spec's path (including `.null` for a missing value) is inserted, changed and removed as
/// the soup changes, within the same commit. Queries stay correct without it (the spec's
/// ordered index can answer everything); a registered index is chosen by the planner only
/// when its ``estimatedCost(of:)`` is below the ordered index's.
///
/// A value type with value semantics: the store copies it to publish a state, and reads a
/// copy from many threads while a writer changes another copy. Copies must therefore be cheap
/// (copy-on-write storage) for large indexes.
public protocol PathIndex: Sendable {
    /// The name index specs give in `kind`: letters, digits and `_`, not one of the built-in
    /// types.
    static var kindName: String { get }

    /// An empty index.
    init()

    /// Restores an index from bytes that ``serialized()`` returned (in a store snapshot).
    ///
    /// - Throws: any error when the bytes do not decode; the store then rebuilds the whole
    ///   state from its log, so a kind whose format changed is rebuilt rather than misread.
    init(serialized bytes: UnsafeRawBufferPointer) throws

    /// The number of (value, id) pairs held.
    var count: Int { get }

    /// Adds entry `id` with `value` (not already present).
    mutating func insert(_ value: IndexValue, id: Int64)

    /// Removes entry `id`, which was added with `value`.
    mutating func remove(_ value: IndexValue, id: Int64)

    /// Removes the entries with these ids, whatever their values (recovery, which knows only
    /// the ids of entries a crash lost).
    mutating func remove(ids: Set<Int64>)

    /// The contents as bytes. Two indexes holding the same pairs must give the same bytes:
    /// `verify` compares the index with one rebuilt from the log by its bytes.
    func serialized() -> [UInt8]

    /// What answering `operation` would cost, in entries visited (the ordered index costs
    /// about the number of results plus two binary searches); nil when the kind does not
    /// answer it.
    func estimatedCost(of operation: IndexOperation) -> Int?

    /// The ids of the entries matching `operation`, ascending, each once. Called only for an
    /// operation ``estimatedCost(of:)`` answered.
    func ids(answering operation: IndexOperation) -> [Int64]

    /// Heap bytes held, roughly, for memory reports.
    var approximateMemoryBytes: Int { get }
}

extension PathIndex {
    public var approximateMemoryBytes: Int { 0 }
}
