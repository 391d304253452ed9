// The full-text index of one soup: for every token of its full_text columns, the entries that
// hold it with the token's positions per column; answers term, prefix and phrase lookups.

/// An inverted index from folded token to posting list: (entry id ascending, column, positions).
///
/// Tokens come from `Tokenizer` (FTS5 unicode61 rules). Lookups by token are hash lookups in a
/// sharded table; prefix lookups walk a sorted vocabulary; posting lists are varint-coded
/// blocks of about 1 KB. Tokens longer than 32,768 bytes are cut to that length when indexed
/// and when looked up, as FTS5 cuts them; the one known difference: FTS5 cuts at byte 32,768
/// even inside a character (keeping a partial UTF-8 sequence), we cut before that character.
///
/// A value type with copy-on-write parts: a copy is an O(1) snapshot, and writing to one copy
/// never changes another. Safe to read from many threads at once; a mutation needs exclusive
/// access to the value being mutated (the usual Swift rule), never to its copies.
package struct FullTextIndex: Sendable {
    /// The number of indexed columns (the soup's full_text paths).
    package let columnCount: Int
    var terms = TermTable()
    var vocabulary = SortedTerms()
    /// Every added entry id (payload-free entries).
    var documents = PostingList()

    /// FTS5's longest token (FTS5_MAX_TOKEN_SIZE); longer tokens are cut to it.
    static let maximumTokenBytes = 32_768
    /// The most columns an index may have.
    package static let maximumColumnCount = 4096

    var termFormat: PostingFormat { PostingFormat(columnCount: columnCount, hasPositions: true) }
    static let documentFormat = PostingFormat(columnCount: 1, hasPositions: false)

    /// Creates an empty index.
    ///
    /// - Parameter columnCount: the number of full-text columns, 1...4096; anything else is a
    ///   programmer error (precondition).
    package init(columnCount: Int) {
        precondition((1...Self.maximumColumnCount).contains(columnCount), "columnCount out of range")
        self.columnCount = columnCount
    }

    /// The number of entries added and not removed.
    package var documentCount: Int { documents.entryCount }

    /// The number of distinct tokens.
    package var tokenCount: Int { terms.count }

    /// Indexes an entry's full-text columns.
    ///
    /// - Parameters:
    ///   - id: the entry id; adding an id that is already in the index, or a `columns` array
    ///     whose count is not `columnCount`, is a programmer error (precondition).
    ///   - columns: each column's text, nil for no value.
    /// - Complexity: O(text length) plus, per distinct token, O(1) amortized when `id` is above
    ///   every indexed id and O(log blocks + 1 KB) otherwise.
    package mutating func add(id: Int64, columns: [String?]) {
        precondition(columns.count == columnCount, "expected \(columnCount) full-text columns")
        let added = documents.insert(id: id, payload: [], format: Self.documentFormat)
        precondition(added, "entry \(id) is already in the full-text index")
        var collected = DocumentTerms()
        for (column, text) in columns.enumerated() {
            if let text { collected.collect(text, column: column) }
        }
        let format = termFormat
        collected.forEachPayload(format: format) { key, payload in
            let change = terms.update(key) { $0.insert(id: id, payload: payload, format: format) }
            if change.added { vocabulary.insert(key) }
        }
    }

    /// Indexes several entries' full-text columns at once: each token's posting list is found
    /// once for the whole batch instead of once per entry (the bulk-ingestion path).
    ///
    /// - Parameter entries: ids not in the index and distinct, each with `columnCount` column
    ///   texts (anything else is a programmer error, as for ``add(id:columns:)``); any order.
    /// - Complexity: O(text length) plus, per distinct token of the batch, one table lookup and
    ///   O(1) amortized per posting when the ids are above every indexed id.
    package mutating func add(batch entries: [(id: Int64, columns: [String?])]) {
        let sorted = entries.sorted { $0.id < $1.id }
        var collected = DocumentTerms()
        for (position, entry) in sorted.enumerated() {
            precondition(entry.columns.count == columnCount, "expected \(columnCount) full-text columns")
            let added = documents.insert(id: entry.id, payload: [], format: Self.documentFormat)
            precondition(added, "entry \(entry.id) is already in the full-text index")
            for (column, text) in entry.columns.enumerated() {
                if let text { collected.collect(text, column: column, entry: position) }
            }
        }
        let format = termFormat
        collected.forEachTerm(format: format) { key, postings in
            let change = terms.update(key) { list in
                for (entry, payload) in postings {
                    _ = list.insert(id: sorted[entry].id, payload: payload, format: format)
                }
            }
            if change.added { vocabulary.insert(key) }
        }
    }

    /// Removes an entry, given the column texts it was added with (the caller keeps them).
    ///
    /// Does nothing when `id` is not in the index. Texts other than the ones added leave stale
    /// postings behind, a programmer error; `remove(ids:)` needs no texts.
    /// - Complexity: O(text length) plus O(log blocks + 1 KB) per distinct token.
    package mutating func remove(id: Int64, columns: [String?]) {
        guard documents.remove(id: id, format: Self.documentFormat) else { return }
        var collected = DocumentTerms()
        for (column, text) in columns.enumerated() {
            if let text { collected.collect(text, column: column) }
        }
        let format = termFormat
        for key in collected.keys {
            let change = terms.update(key) { $0.remove(id: id, format: format) }
            if change.dropped { vocabulary.remove(key) }
        }
    }

    /// Removes entries without their texts: one pass over every posting list (what recovery
    /// does with the ids changed after a snapshot). Ids not in the index are ignored.
    ///
    /// - Complexity: O(blocks × log ids) plus the size of the blocks that hold the ids.
    package mutating func remove(ids: some Sequence<Int64>) {
        let sorted = Array(Set(ids)).sorted()
        guard documents.remove(sortedIds: sorted, format: Self.documentFormat) > 0 else { return }
        let format = termFormat
        let dropped = terms.updateAll(where: { $0.mayHold(sorted) }) { list in
            list.remove(sortedIds: sorted, format: format)
        }
        for key in dropped { vocabulary.remove(key) }
    }

    /// Whether an entry is in the index.
    package func contains(id: Int64) -> Bool {
        var cursor = PostingCursor(documents, format: Self.documentFormat)
        cursor.seek(atLeast: id)
        return !cursor.isAtEnd && cursor.id == id
    }

    /// A rough count of the heap bytes the index holds: posting bytes as allocated, block and
    /// table overheads, long token strings.
    ///
    /// - Complexity: O(tokens + blocks).
    package var approximateMemoryBytes: Int {
        // Per array allocation: 32-byte header plus malloc's 16-byte granularity (about 8 more).
        let arrayOverhead = 40
        func listBytes(_ list: PostingList) -> Int {
            var total = list.tail.bytes.capacity + (list.tail.bytes.capacity > 0 ? arrayOverhead : 0)
            if !list.sealed.isEmpty {
                total += (1 + list.sealed.chunkCount) * arrayOverhead + list.sealed.capacity * MemoryLayout<PostingBlock>.stride
                list.sealed.forEach { block in total += block.bytes.capacity + arrayOverhead }
            }
            return total
        }
        // A dictionary slot (key and box reference, at a load factor of at most 3/4) and the box.
        let slot = (MemoryLayout<TermKey>.stride + 8) * 4 / 3 + 16 + MemoryLayout<PostingList>.stride
        var total = listBytes(documents)
        terms.forEach { key, list in
            let length = key.byteCount
            total += slot + listBytes(list) + (length > 15 ? length + arrayOverhead : 0)
        }
        // The sorted vocabulary: one String per token, in chunks at most 256 long.
        total += vocabulary.count * MemoryLayout<TermKey>.stride * 4 / 3
        total += terms.shards.count * 64 + vocabulary.chunks.count * arrayOverhead
        return total
    }

    /// A token as the index keys it: cut to `maximumTokenBytes` at a character boundary.
    static func indexedForm(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<indexedLength(bytes)]), as: UTF8.self)
    }

    /// How many of a token's bytes the index keeps: all, or `maximumTokenBytes` cut back to a
    /// character boundary.
    static func indexedLength(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard bytes.count > maximumTokenBytes else { return bytes.count }
        var end = maximumTokenBytes
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return end
    }

    /// A query token as the index keys it.
    static func key(_ token: String) -> TermKey {
        guard token.utf8.count > maximumTokenBytes else { return TermKey(token) }
        return TermKey(TermKey.withUTF8(token) { indexedForm($0) })
    }
}
