// The full-text index's lookups: one token, a prefix, a phrase, counts and raw postings; each
// returns ascending entry ids for the query layer to intersect and unite.

/// One token's occurrences in one column of one entry.
package struct FullTextPosting: Sendable, Hashable {
    /// The entry id.
    package var id: Int64
    /// The column, 0..<columnCount.
    package var column: Int
    /// The token's positions in that column's text, ascending.
    package var positions: [Int]
}

extension FullTextIndex {
    /// The entries that hold a token, ascending.
    ///
    /// - Parameters:
    ///   - token: a folded token (from `Tokenizer`).
    ///   - column: only entries that hold it in this column; nil for any column.
    /// - Complexity: O(1) expected to find the token, then O(size of its posting list).
    package func entries(containing token: String, column: Int?) -> [Int64] {
        guard let list = terms[Self.key(token)] else { return [] }
        return ids(of: list, column: column)
    }

    /// The entries that hold any token starting with `prefix` (byte-wise), ascending, no repeats.
    ///
    /// - Complexity: O(log tokens) to find the first token, then the size of the matching lists;
    ///   several lists are united through a bitmap over their id range (or a sort when the ids
    ///   are sparse).
    package func entries(withPrefix prefix: String, column: Int?) -> [Int64] {
        var found: [[Int64]] = []
        vocabulary.forEach(withPrefix: Self.key(prefix)) { key in
            if let list = terms[key] { found.append(ids(of: list, column: column)) }
        }
        return Self.union(found)
    }

    /// The ascending, distinct union of ascending id lists: a bitmap over the id range when the
    /// ids are dense enough, else a sort.
    static func union(_ lists: [[Int64]]) -> [Int64] {
        guard lists.count > 1 else { return lists.first ?? [] }
        var total = 0
        var lowest = Int64.max
        var highest = Int64.min
        for list in lists where !list.isEmpty {
            total += list.count
            lowest = min(lowest, list[0])
            highest = max(highest, list[list.count - 1])
        }
        guard total > 0 else { return [] }
        let (span, overflow) = highest.subtractingReportingOverflow(lowest)
        guard !overflow, span < Int64(64 * total + 4096) else {
            var all = lists.flatMap { $0 }
            all.sort()
            var unique = 0
            for index in all.indices where index == 0 || all[index] != all[unique - 1] {
                all[unique] = all[index]
                unique += 1
            }
            all.removeSubrange(unique...)
            return all
        }
        var bits = [UInt64](repeating: 0, count: Int(span) / 64 + 1)
        for list in lists {
            for id in list {
                let offset = Int(id &- lowest)
                bits[offset >> 6] |= 1 << UInt64(offset & 63)
            }
        }
        var result: [Int64] = []
        result.reserveCapacity(total)
        for (word, value) in bits.enumerated() {
            var remaining = value
            while remaining != 0 {
                result.append(lowest &+ Int64(word << 6 + remaining.trailingZeroBitCount))
                remaining &= remaining &- 1
            }
        }
        return result
    }

    /// The entries where the tokens appear next to each other, in order, in one column.
    ///
    /// - Parameters:
    ///   - tokens: folded tokens; an empty phrase matches nothing.
    ///   - column: only this column; nil for any (but still all within one column).
    /// - Complexity: a leapfrog intersection of the lists (skipping blocks), plus a position
    ///   check per common entry.
    package func entries(withPhrase tokens: [String], column: Int?) -> [Int64] {
        guard !tokens.isEmpty else { return [] }
        guard tokens.count > 1 else { return entries(containing: tokens[0], column: column) }
        var cursors: [PostingCursor] = []
        for token in tokens {
            guard let list = terms[Self.key(token)] else { return [] }
            cursors.append(PostingCursor(list, format: termFormat))
        }
        var result: [Int64] = []
        var positions = [[Int]](repeating: [], count: cursors.count)
        var columns: [Int] = []
        outer: while !cursors[0].isAtEnd {
            let target = cursors[0].id
            for index in 1..<cursors.count {
                cursors[index].seek(atLeast: target)
                if cursors[index].isAtEnd { break outer }
                if cursors[index].id != target {
                    cursors[0].seek(atLeast: cursors[index].id)
                    continue outer
                }
            }
            if let column {
                columns = [column]
            } else {
                cursors[0].columns(into: &columns)
            }
            if Self.phraseOccurs(cursors, columns: columns, scratch: &positions) { result.append(target) }
            cursors[0].advance()
        }
        return result
    }

    /// Whether, in one of `columns`, token i of the phrase is at p + i for every i, for some p;
    /// the cursors all stand on the same entry. `scratch` holds one reused array per token.
    static func phraseOccurs(_ cursors: [PostingCursor], columns: [Int], scratch: inout [[Int]]) -> Bool {
        columns: for column in columns {
            for index in cursors.indices {
                cursors[index].positions(inColumn: column, into: &scratch[index])
                if scratch[index].isEmpty { continue columns }
            }
            starts: for start in scratch[0] {
                for index in 1..<cursors.count where !sortedContains(scratch[index], start + index) {
                    continue starts
                }
                return true
            }
        }
        return false
    }

    /// The number of entries that hold a token.
    ///
    /// - Complexity: O(1) expected with `column` nil (the posting list's length); otherwise
    ///   O(size of the posting list).
    package func count(containing token: String, column: Int?) -> Int {
        guard let list = terms[Self.key(token)] else { return 0 }
        guard let column else { return list.entryCount }
        return ids(of: list, column: column).count
    }

    /// A token's occurrences, ascending by entry id then column.
    package func postings(of token: String, column: Int?) -> [FullTextPosting] {
        guard let list = terms[Self.key(token)] else { return [] }
        var result: [FullTextPosting] = []
        var cursor = PostingCursor(list, format: termFormat)
        while !cursor.isAtEnd {
            for group in cursor.groups() where column == nil || group.column == column {
                result.append(FullTextPosting(id: cursor.id, column: group.column, positions: group.positions))
            }
            cursor.advance()
        }
        return result
    }

    /// The ids of a list's entries, optionally only those with the token in `column`.
    func ids(of list: PostingList, column: Int?) -> [Int64] {
        let format = termFormat
        guard let column else {
            // Every entry: the count is known, so the ids go straight into the result's storage.
            return [Int64](unsafeUninitializedCapacity: list.entryCount) { buffer, initialized in
                for index in 0..<list.blockCount {
                    let block = list.block(index)
                    block.bytes.withUnsafeBufferPointer { bytes in
                        var offset = 0
                        var id: Int64 = 0
                        for slot in 0..<Int(block.count) {
                            let value = Int64(bitPattern: PostingCoding.readVarint(bytes, &offset) ?? 0)
                            id = slot == 0 ? value : id &+ value
                            PostingCoding.skipPayloadFast(bytes, &offset, columnCount: format.columnCount)
                            buffer[initialized] = id
                            initialized += 1
                        }
                    }
                }
            }
        }
        var result: [Int64] = []
        for index in 0..<list.blockCount {
            let block = list.block(index)
            block.bytes.withUnsafeBufferPointer { bytes in
                var offset = 0
                var id: Int64 = 0
                for slot in 0..<Int(block.count) {
                    let value = Int64(bitPattern: PostingCoding.readVarint(bytes, &offset) ?? 0)
                    id = slot == 0 ? value : id &+ value
                    var found = false
                    PostingCoding.skipPayload(bytes, &offset, format: format, column: column, found: &found)
                    if found { result.append(id) }
                }
            }
        }
        return result
    }

    private static func sortedContains(_ values: [Int], _ value: Int) -> Bool {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) >> 1
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < values.count && values[low] == value
    }
}
