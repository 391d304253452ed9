// The full-text index's vocabulary in byte order, for prefix queries and snapshots: a two-level
// B-tree (an array of sorted chunks of at most 256 tokens), shared between snapshots by chunk.

/// Every token of the index, ascending by UTF-8 bytes.
///
/// Chunks hold 1...256 tokens; a full chunk splits in two. Lookup is a binary search over the
/// chunks' last tokens, then within one chunk. A value type: a copy is O(1) and a write after a
/// copy copies the chunk array (about `count / 128` references) and one chunk.
///
/// Why not a sorted array rebuilt lazily: new tokens arrive with most writes, so the first prefix
/// query after each write would pay an O(n log n) rebuild; here an insertion costs O(n / 128 +
/// 256) element moves at worst, with no rebuild and no stall.
struct SortedTerms: Sendable {
    private(set) var chunks: [[TermKey]] = []
    private(set) var count = 0

    static let chunkCapacity = 256

    /// Adds a token that is not in the set.
    mutating func insert(_ key: TermKey) {
        count += 1
        guard !chunks.isEmpty else {
            chunks = [[key]]
            return
        }
        let chunk = min(chunkIndex(atLeast: key), chunks.count - 1)
        let slot = Self.lowerBound(chunks[chunk], key)
        chunks[chunk].insert(key, at: slot)
        if chunks[chunk].count > Self.chunkCapacity {
            let upper = Array(chunks[chunk][(Self.chunkCapacity / 2)...])
            chunks[chunk].removeSubrange((Self.chunkCapacity / 2)...)
            chunks.insert(upper, at: chunk + 1)
        }
    }

    /// Removes a token, if present.
    mutating func remove(_ key: TermKey) {
        let chunk = chunkIndex(atLeast: key)
        guard chunk < chunks.count else { return }
        let slot = Self.lowerBound(chunks[chunk], key)
        guard slot < chunks[chunk].count, chunks[chunk][slot] == key else { return }
        count -= 1
        if chunks[chunk].count == 1 {
            chunks.remove(at: chunk)
        } else {
            chunks[chunk].remove(at: slot)
        }
    }

    /// Calls `body` with each token that starts with `prefix`'s bytes, ascending.
    ///
    /// - Complexity: O(log n) to find the first, then O(1) per token.
    func forEach(withPrefix prefix: TermKey, _ body: (TermKey) -> Void) {
        var chunk = chunkIndex(atLeast: prefix)
        guard chunk < chunks.count else { return }
        var slot = Self.lowerBound(chunks[chunk], prefix)
        while chunk < chunks.count {
            let tokens = chunks[chunk]
            while slot < tokens.count {
                guard tokens[slot].hasBytePrefix(prefix) else { return }
                body(tokens[slot])
                slot += 1
            }
            chunk += 1
            slot = 0
        }
    }

    /// Replaces the contents with tokens already ascending and distinct (a snapshot's).
    mutating func build(ascending keys: [TermKey]) {
        let half = Self.chunkCapacity / 2
        chunks = stride(from: 0, to: keys.count, by: half).map {
            Array(keys[$0..<min($0 + half, keys.count)])
        }
        count = keys.count
    }

    /// The first chunk whose last token is at least `key`; `chunks.count` when none is.
    private func chunkIndex(atLeast key: TermKey) -> Int {
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) >> 1
            if chunks[middle][chunks[middle].count - 1] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private static func lowerBound(_ tokens: [TermKey], _ key: TermKey) -> Int {
        var low = 0
        var high = tokens.count
        while low < high {
            let middle = (low + high) >> 1
            if tokens[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
