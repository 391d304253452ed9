// The tokens of one or more entries' full-text columns, grouped by token: what
// `FullTextIndex.add` turns into one payload per token and entry, and `remove` into the set of
// tokens to visit.

/// Collects the tokens of one entry's columns and groups their positions by token and column.
///
/// Tokens are looked up by their bytes in a small open-addressing table keyed by FNV-1a, so a
/// token's `String` is made once per distinct token, not once per occurrence.
struct DocumentTerms {
    /// The distinct tokens, in order of first appearance.
    private(set) var keys: [TermKey] = []
    /// Open addressing over `keys`: -1 for an empty slot, else an index into `keys`. Its count
    /// is a power of two, at least twice the number of keys.
    private var slots: [Int32] = []
    /// Every token occurrence in collection order (entry, then column, then position).
    private var occurrences: [Occurrence] = []

    typealias Occurrence = (term: Int32, entry: Int32, column: Int32, position: Int32)

    /// Tokenizes one column's text of the `entry`-th entry collected (entries in the order
    /// their postings are to be added) and records its tokens.
    mutating func collect(_ text: String, column: Int, entry: Int = 0) {
        var text = text
        // About one token per six bytes: sizing the table once spares its growth.
        reserveSlots(for: keys.count + text.utf8.count / 6 + 4)
        text.withUTF8 { utf8 in
            Tokenizer.forEachToken(utf8: UnsafeRawBufferPointer(utf8)) { bytes, position in
                occurrences.append((term(for: bytes), Int32(clamping: entry), Int32(column), Int32(clamping: position)))
            }
        }
    }

    /// The index in `keys` of the token `bytes`, added when new.
    private mutating func term(for bytes: UnsafeRawBufferPointer) -> Int32 {
        let indexed =
            bytes.count > FullTextIndex.maximumTokenBytes
            ? UnsafeRawBufferPointer(rebasing: bytes[..<FullTextIndex.indexedLength(bytes)]) : bytes
        let hash = TermKey.fnv1a(indexed)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            let key = keys[Int(slots[slot])]
            if key.bytesHash == hash, TermKey.withUTF8(key.text, { $0.elementsEqual(indexed) }) {
                return slots[slot]
            }
            slot = (slot + 1) & mask
        }
        let term = Int32(keys.count)
        keys.append(TermKey(String(decoding: indexed, as: UTF8.self), bytesHash: hash))
        slots[slot] = term
        if keys.count * 2 > slots.count { reserveSlots(for: keys.count) }
        return term
    }

    /// Makes the table at least twice `count` slots, rehashing the keys.
    private mutating func reserveSlots(for count: Int) {
        var size = max(slots.count, 16)
        while size < count * 2 { size *= 2 }
        guard size > slots.count else { return }
        slots = [Int32](repeating: -1, count: size)
        let mask = size - 1
        for (term, key) in keys.enumerated() {
            var slot = Int(truncatingIfNeeded: key.bytesHash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(term)
        }
    }

    /// Calls `body` with each distinct token and its coded payload (the buffer is reused between
    /// calls), in order of first appearance; for a single entry.
    func forEachPayload(format: PostingFormat, _ body: (TermKey, [UInt8]) -> Void) {
        forEachTerm(format: format) { key, postings in
            for (_, payload) in postings { body(key, payload) }
        }
    }

    /// Calls `body` with each distinct token and, for every entry that holds it (in collection
    /// order), the entry's number and coded payload. The array is reused between calls.
    func forEachTerm(format: PostingFormat, _ body: (TermKey, [(entry: Int, payload: [UInt8])]) -> Void) {
        // A counting sort by token keeps each token's occurrences in collection order.
        var starts = [Int](repeating: 0, count: keys.count + 1)
        for occurrence in occurrences { starts[Int(occurrence.term) + 1] += 1 }
        for index in keys.indices { starts[index + 1] += starts[index] }
        var next = starts
        var sorted = occurrences
        for occurrence in occurrences {
            sorted[next[Int(occurrence.term)]] = occurrence
            next[Int(occurrence.term)] += 1
        }
        var postings: [(entry: Int, payload: [UInt8])] = []
        for (term, key) in keys.enumerated() {
            postings.removeAll(keepingCapacity: true)
            var start = starts[term]
            while start < starts[term + 1] {
                let entry = sorted[start].entry
                var end = start + 1
                while end < starts[term + 1], sorted[end].entry == entry { end += 1 }
                var payload: [UInt8] = []
                appendPayload(sorted[start..<end], format: format, to: &payload)
                postings.append((Int(entry), payload))
                start = end
            }
            body(key, postings)
        }
    }

    /// Codes one token's occurrences in one entry (ascending column, then position) as a
    /// payload; see `PostingCoding` for the layout.
    private func appendPayload(_ occurrences: ArraySlice<Occurrence>, format: PostingFormat, to payload: inout [UInt8]) {
        var groupStart = occurrences.startIndex
        while groupStart < occurrences.endIndex {
            let column = occurrences[groupStart].column
            var groupEnd = groupStart + 1
            while groupEnd < occurrences.endIndex, occurrences[groupEnd].column == column { groupEnd += 1 }
            PostingCoding.appendGroup(
                column: Int(column), positions: occurrences[groupStart..<groupEnd].lazy.map { Int($0.position) },
                more: groupEnd < occurrences.endIndex, format: format, to: &payload)
            groupStart = groupEnd
        }
    }
}
