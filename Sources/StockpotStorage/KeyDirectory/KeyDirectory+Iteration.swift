// Visiting the key directory's entries in ascending key order, from the first key at or after
// a starting key, straight off the nodes' blocks (no node objects, no reference counting).

extension KeyDirectory {
    /// Visits entries in ascending key order starting at the first key >= `start` (all when
    /// nil); stops when `body` returns false. The key buffer is valid only during the call.
    ///
    /// The directory must not be mutated from inside `body`; iterate over a copy to do so.
    ///
    /// - Parameters:
    ///   - start: The smallest key to visit, or `nil` for all keys.
    ///   - body: Called with each key and its location; returns whether to go on.
    /// - Throws: What `body` throws, ending the visit.
    /// - Complexity: O(log n) to find the start, then O(1) a visited entry.
    package func forEach(
        from start: [UInt8]? = nil, _ body: (UnsafeRawBufferPointer, KeyLocation) throws -> Bool
    ) rethrows {
        // `self` holds the root, and so every block, for the whole call.
        guard let block = root.map({ KeyDirectoryNodeBlock($0.block) }) else { return }
        if let start {
            try start.withUnsafeBytes { _ = try Self.visit(block, from: $0, body) }
        } else {
            _ = try Self.visit(block, from: nil, body)
        }
    }

    /// Visits the subtree under `node` from `start`; returns false once `body` has said stop.
    private static func visit(
        _ node: KeyDirectoryNodeBlock, from start: UnsafeRawBufferPointer?,
        _ body: (UnsafeRawBufferPointer, KeyLocation) throws -> Bool
    ) rethrows -> Bool {
        if node.isLeaf {
            var index = start.map { node.lowerBound($0).index } ?? 0
            while index < node.count {
                guard try body(node.key(at: index), node.location(at: index)) else { return false }
                index += 1
            }
            return true
        }
        var child = start.map { node.childIndex(for: $0) } ?? 0
        guard try visit(node.childBlock(at: child), from: start, body) else { return false }
        child += 1
        while child < node.childCount {
            guard try visit(node.childBlock(at: child), from: nil, body) else { return false }
            child += 1
        }
        return true
    }
}
