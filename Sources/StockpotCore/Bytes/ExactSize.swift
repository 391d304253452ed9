// Byte arrays cut to their size: an array that grew geometrically, or was allocated for a
// worst case, keeps its spare capacity for as long as it lives; a copy at its count does not.

extension Array where Element == UInt8 {
    /// These bytes in storage of about their count: `self` when the spare capacity is at most
    /// an eighth of the count, otherwise a copy allocated at the count.
    ///
    /// `Array(self)` and `Array(self[...])` would not do: both may share the same storage.
    ///
    /// - Complexity: O(n) when it copies, O(1) otherwise.
    package func exactSize() -> [UInt8] {
        guard capacity - count > count / 8 else { return self }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = self.withUnsafeBufferPointer { source in
                buffer.initialize(fromContentsOf: source)
            }
        }
    }
}
