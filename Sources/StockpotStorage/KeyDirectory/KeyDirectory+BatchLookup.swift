// Looking up many keys at once: every key descends the tree one level per round, and each
// round asks for all the next nodes' lines before any is read, so the memory latencies of a
// page of lookups overlap instead of adding up (a page of query results reads its rows this way).

extension KeyDirectory {
    /// The location stored for each of the keys packed back to back in `keys`, `keyLength`
    /// bytes each, in order (`nil` for a key with none): what ``location(for:)`` gives for
    /// each.
    ///
    /// A single lookup pays one memory latency per tree level it misses, one after the other.
    /// Here the keys go down together, a level per round: a round finds each key's child and
    /// asks for its lines, and the next round reads them, by then on their way. With cold
    /// nodes (a large store, or caches another workload evicted) a page of n lookups costs
    /// about a lookup's latencies rather than n of them.
    ///
    /// - Precondition: `keyLength` is at least 1 and divides `keys.count` (programmer error).
    /// - Complexity: O(n log size) byte comparisons, like n single lookups.
    package func locations(forKeys keys: UnsafeRawBufferPointer, keyLength: Int) -> [KeyLocation?] {
        precondition(keyLength >= 1 && keys.count % keyLength == 0, "KeyDirectory.locations: keys are not of keyLength bytes")
        let count = keys.count / keyLength
        guard let root, count > 0 else { return Array(repeating: nil, count: count) }
        func key(_ i: Int) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: keys[i * keyLength..<(i + 1) * keyLength]) }
        // `self` holds the root, which holds every node, for the whole call: the descent reads
        // blocks, with no node references counted. A page's blocks fit on the stack.
        return withUnsafeTemporaryAllocation(of: KeyDirectoryNodeBlock.self, capacity: count) { blocks in
            blocks.initialize(repeating: KeyDirectoryNodeBlock(root.block))
            // Every leaf of a B+tree is at the same depth: all keys reach theirs together.
            while !blocks[0].isLeaf {
                for i in 0..<count {
                    let child = blocks[i].childBlock(at: blocks[i].childIndex(for: key(i)))
                    child.prefetchSearchedBytes()
                    blocks[i] = child
                }
            }
            // The leaves' slots were asked for on the way down: each key's candidate entry
            // comes from them, and only that entry's key and location are asked for (a few
            // lines, where a whole leaf's records and arena are fifty).
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { candidates in
                for i in 0..<count {
                    let candidate = blocks[i].candidate(for: key(i))
                    blocks[i].prefetchEntry(at: candidate)
                    candidates.initializeElement(at: i, to: candidate)
                }
                var locations: [KeyLocation?] = []
                locations.reserveCapacity(count)
                for i in 0..<count {
                    locations.append(blocks[i].index(of: key(i), from: candidates[i]).map { blocks[i].location(at: $0) })
                }
                return locations
            }
        }
    }
}
