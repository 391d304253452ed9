// The tokens of one entry's full-text columns, grouped by token: what `FullTextIndex.add` turns
// into one payload per token, and `remove` into the set of tokens to visit.

/// Collects the tokens of one entry's columns and groups their positions by token and column.
struct DocumentTerms {
    /// The distinct tokens, in order of first appearance.
    private(set) var keys: [TermKey] = []
    private var slots: [TermKey: Int32] = [:]
    /// Every token occurrence in text order (column, then position).
    private var occurrences: [(term: Int32, column: Int32, position: Int32)] = []

    /// Tokenizes one column's text and records its tokens.
    mutating func collect(_ text: String, column: Int) {
        var text = text
        text.withUTF8 { utf8 in
            Tokenizer.forEachToken(utf8: UnsafeRawBufferPointer(utf8)) { bytes, position in
                let key = TermKey(FullTextIndex.indexedForm(bytes))
                let term: Int32
                if let existing = slots[key] {
                    term = existing
                } else {
                    term = Int32(keys.count)
                    slots[key] = term
                    keys.append(key)
                }
                occurrences.append((term, Int32(column), Int32(clamping: position)))
            }
        }
    }

    /// Calls `body` with each distinct token and its coded payload (the buffer is reused between
    /// calls), in order of first appearance.
    func forEachPayload(format: PostingFormat, _ body: (TermKey, [UInt8]) -> Void) {
        // A counting sort by token keeps each token's occurrences in text order.
        var starts = [Int](repeating: 0, count: keys.count + 1)
        for occurrence in occurrences { starts[Int(occurrence.term) + 1] += 1 }
        for index in keys.indices { starts[index + 1] += starts[index] }
        var next = starts
        var sorted = occurrences
        for occurrence in occurrences {
            sorted[next[Int(occurrence.term)]] = occurrence
            next[Int(occurrence.term)] += 1
        }
        var payload: [UInt8] = []
        for (term, key) in keys.enumerated() {
            payload.removeAll(keepingCapacity: true)
            appendPayload(sorted[starts[term]..<starts[term + 1]], format: format, to: &payload)
            body(key, payload)
        }
    }

    /// Codes one token's occurrences (ascending column, then position) as a payload; see
    /// `PostingCoding` for the layout.
    private func appendPayload(
        _ occurrences: ArraySlice<(term: Int32, column: Int32, position: Int32)>,
        format: PostingFormat, to payload: inout [UInt8]
    ) {
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
