// A set of puts and deletes committed atomically.

/// Puts and deletes that ``StorageEngine/write(_:)`` commits all together or not at all, in
/// the order they were added (a later operation on the same key wins).
public struct WriteBatch: Sendable {
    /// One operation.
    public enum Operation: Sendable, Hashable {
        /// Set `key` to `value`.
        case put(key: [UInt8], value: [UInt8])
        /// Remove `key` (nothing happens when it has no value).
        case delete(key: [UInt8])

        /// The key the operation is on.
        public var key: [UInt8] {
            switch self {
            case .put(let key, _), .delete(let key): return key
            }
        }
    }

    /// The operations, in order.
    public private(set) var operations: [Operation] = []

    /// Creates an empty batch.
    public init() {}

    /// Adds a put of `value` at `key`.
    public mutating func put(_ key: [UInt8], _ value: [UInt8]) {
        operations.append(.put(key: key, value: value))
    }

    /// Adds a delete of `key`.
    public mutating func delete(_ key: [UInt8]) {
        operations.append(.delete(key: key))
    }

    /// Whether the batch has no operations.
    public var isEmpty: Bool { operations.isEmpty }

    /// The number of operations.
    public var count: Int { operations.count }
}
