// The token -> posting list hash table of the full-text index, split into shards of about 32
// tokens so that a write after a snapshot copies only the shards it touches.

/// A posting list behind one reference, so that copying a shard costs one retain per token.
///
/// `@unchecked Sendable`: the list is only mutated while the box is uniquely referenced
/// (copy-on-write in `TermTable`), so a box that another value can see is never written.
final class PostingListBox: @unchecked Sendable {
    var list: PostingList

    init(_ list: PostingList) {
        self.list = list
    }
}

/// A hash table from token to posting list, sharded by a hash of the token's bytes.
///
/// A value type: a copy is O(1); the first write after a copy copies the array of shards (about
/// `count / 32` references), each shard it changes (about 32 references) and each posting list
/// box it changes; a list's blocks are copied only when written.
struct TermTable: Sendable {
    /// Power-of-two many shards; a token lives in shard `shardHash & (shards.count - 1)`.
    private(set) var shards: [[TermKey: PostingListBox]] = [[:]]
    /// The number of tokens.
    private(set) var count = 0

    /// The table doubles its shards when they average more tokens than this.
    static let targetShardSize = 32

    /// The posting list of a token.
    subscript(key: TermKey) -> PostingList? {
        shards[shardIndex(key)][key]?.list
    }

    /// Runs `body` on the token's posting list in place (an empty one when the token is new);
    /// the token is dropped if the list ends up empty.
    ///
    /// - Returns: whether the token was added, and whether it was dropped.
    mutating func update(
        _ key: TermKey, _ body: (inout PostingList) -> Void
    ) -> (added: Bool, dropped: Bool) {
        var added = false
        var dropped = false
        func change(_ slot: inout PostingListBox?) {
            if slot == nil {
                added = true
                slot = PostingListBox(PostingList())
            } else if !isKnownUniquelyReferenced(&slot!) {
                slot = PostingListBox(slot!.list)
            }
            body(&slot!.list)
            if slot!.list.isEmpty {
                dropped = true
                slot = nil
            }
        }
        change(&shards[shardIndex(key)][key])
        count += (added ? 1 : 0) - (dropped ? 1 : 0)
        if count > shards.count * Self.targetShardSize { doubleShards() }
        return (added && !dropped, dropped && !added)
    }

    /// Runs `body` on every posting list for which `touches` is true, then drops the tokens whose
    /// lists are empty. Lists left alone are not copied.
    ///
    /// - Returns: the dropped tokens.
    mutating func updateAll(
        where touches: (PostingList) -> Bool, _ body: (inout PostingList) -> Void
    ) -> [TermKey] {
        var dropped: [TermKey] = []
        for shard in shards.indices {
            var emptied = false
            var index = shards[shard].values.startIndex
            while index != shards[shard].values.endIndex {
                if touches(shards[shard].values[index].list) {
                    if !isKnownUniquelyReferenced(&shards[shard].values[index]) {
                        shards[shard].values[index] = PostingListBox(shards[shard].values[index].list)
                    }
                    body(&shards[shard].values[index].list)
                    emptied = emptied || shards[shard].values[index].list.isEmpty
                }
                shards[shard].values.formIndex(after: &index)
            }
            if emptied {
                let keys = shards[shard].filter { $0.value.list.isEmpty }.map(\.key)
                for key in keys { shards[shard][key] = nil }
                dropped += keys
            }
        }
        count -= dropped.count
        return dropped
    }

    /// Calls `body` with every token and its posting list, in no particular order.
    func forEach(_ body: (TermKey, PostingList) -> Void) {
        for shard in shards {
            for (key, box) in shard { body(key, box.list) }
        }
    }

    private func shardIndex(_ key: TermKey) -> Int {
        Int(truncatingIfNeeded: Self.shardHash(key)) & (shards.count - 1)
    }

    private mutating func doubleShards() {
        var doubled = [[TermKey: PostingListBox]](repeating: [:], count: shards.count * 2)
        let mask = doubled.count - 1
        for shard in shards {
            for (key, box) in shard {
                doubled[Int(truncatingIfNeeded: Self.shardHash(key)) & mask][key] = box
            }
        }
        shards = doubled
    }

    /// The token's FNV-1a hash, rotated so that the shard is chosen by other bits than the
    /// shard's dictionary buckets (which the standard library seeds and mixes on its own).
    static func shardHash(_ key: TermKey) -> UInt64 {
        (key.bytesHash << 17) | (key.bytesHash >> 47)
    }
}
