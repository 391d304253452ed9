// The checked reading side of full-text index snapshots (docs/format/fulltext-index.md): a
// bounds-checked byte cursor that throws IndexSnapshotError, and the document-id membership set.

/// The document ids of a snapshot, for checking that every posting names a document: a bitmap
/// over the id range when the ids are dense enough, else the sorted ids.
struct FullTextDocumentIds {
    private var lowest: Int64 = 0
    private var bits: [UInt64] = []
    private var sorted: [Int64] = []
    private var dense = true

    init(_ documents: PostingList) {
        var cursor = PostingCursor(documents, format: FullTextIndex.documentFormat)
        var ids: [Int64] = []
        ids.reserveCapacity(documents.entryCount)
        while !cursor.isAtEnd {
            ids.append(cursor.id)
            cursor.advance()
        }
        guard let first = ids.first, let last = ids.last else { return }
        let (span, overflow) = last.subtractingReportingOverflow(first)
        if !overflow, span < Int64(64 * ids.count + 4096) {
            lowest = first
            bits = [UInt64](repeating: 0, count: Int(span) / 64 + 1)
            for id in ids {
                let offset = Int(id &- first)
                bits[offset >> 6] |= 1 << UInt64(offset & 63)
            }
        } else {
            dense = false
            sorted = ids
        }
    }

    /// Whether `id` is a document; `hint` carries the search position between ascending calls.
    func contains(_ id: Int64, hint: inout Int) -> Bool {
        if dense {
            let (offset, overflow) = id.subtractingReportingOverflow(lowest)
            guard !overflow, offset >= 0, offset < Int64(bits.count) * 64 else { return false }
            return bits[Int(offset) >> 6] & (1 << UInt64(offset & 63)) != 0
        }
        // Gallop from the hint: doubling steps, then a binary search.
        var low = hint
        var high = hint
        var step = 1
        while high < sorted.count, sorted[high] < id {
            low = high + 1
            high = hint + step
            step <<= 1
        }
        high = min(high, sorted.count)
        while low < high {
            let middle = (low + high) >> 1
            if sorted[middle] < id { low = middle + 1 } else { high = middle }
        }
        hint = low
        return low < sorted.count && sorted[low] == id
    }
}

/// A checked cursor over snapshot bytes: every read is bounds-checked and throws.
struct FullTextSnapshotReader {
    let buffer: UnsafeBufferPointer<UInt8>
    var offset = 0

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    var remaining: Int { buffer.count - offset }

    func error(_ code: IndexSnapshotError.Code, _ message: String, at position: Int? = nil) -> IndexSnapshotError {
        IndexSnapshotError(code, "full-text index: \(message)", offset: position ?? offset)
    }

    mutating func varint(_ field: @autoclosure () -> String) throws(IndexSnapshotError) -> UInt64 {
        let start = offset
        guard let value = PostingCoding.readVarint(buffer, &offset) else {
            let code: IndexSnapshotError.Code = offset >= buffer.count ? .truncated : .invalidVarint
            throw error(code, "bad or truncated varint (\(field()))", at: start)
        }
        return value
    }

    /// A count that cannot exceed the bytes left, given the fewest bytes each item takes.
    mutating func count(_ field: @autoclosure () -> String, minimumBytesEach: Int) throws(IndexSnapshotError) -> Int {
        let start = offset
        let value = try varint(field())
        guard value <= UInt64(remaining / minimumBytesEach) else {
            throw error(.countMismatch, "\(field()) \(value) exceeds the bytes left", at: start)
        }
        return Int(value)
    }

    mutating func bytes(_ count: Int, _ field: String) throws(IndexSnapshotError) -> UnsafeBufferPointer<UInt8> {
        guard count <= remaining else { throw error(.truncated, "\(field) runs past the end") }
        defer { offset += count }
        return UnsafeBufferPointer(rebasing: buffer[offset..<offset + count])
    }

    /// Reads `varint(count) varint(byte-length) entry{count}`, checks every entry (ascending ids,
    /// each in `members` when given, well-formed payloads) and cuts the entries into blocks.
    mutating func postingList(
        format: PostingFormat, members: FullTextDocumentIds?, what: String
    ) throws(IndexSnapshotError) -> PostingList {
        let count = try self.count("\(what) count", minimumBytesEach: 1)
        let length = try self.count("\(what) length", minimumBytesEach: 1)
        guard count <= length else { throw error(.countMismatch, "\(what): \(count) entries cannot fit \(length) bytes") }
        let end = offset + length
        var inner = FullTextSnapshotReader(UnsafeBufferPointer(rebasing: buffer[..<end]))
        inner.offset = offset
        var blocks: [PostingBlock] = []
        var block = PostingBlock()
        var blockRest = offset  // where the current block's bytes after its first id start
        var id: Int64 = 0
        var memberHint = 0
        for index in 0..<count {
            let entryStart = inner.offset
            let code = try inner.varint("\(what) id")
            if index == 0 {
                id = Int64(bitPattern: code)
            } else {
                let (next, overflow) = id.addingReportingOverflow(Int64(bitPattern: code))
                guard code >= 1, code <= UInt64(Int64.max), !overflow else {
                    throw error(.outOfOrder, "\(what): ids not ascending", at: entryStart)
                }
                id = next
            }
            if let members, !members.contains(id, hint: &memberHint) {
                throw error(.invalidValue, "\(what): entry \(id) is not a document", at: entryStart)
            }
            if block.count == 0 {  // a block starts with its first id coded whole
                PostingCoding.appendVarint(UInt64(bitPattern: id), to: &block.bytes)
                blockRest = inner.offset
            }
            try inner.checkPayload(format: format, what: what)
            block.count += 1
            block.lastId = id
            if inner.offset - blockRest >= PostingList.blockTargetBytes || index == count - 1 {
                block.bytes.append(contentsOf: inner.buffer[blockRest..<inner.offset])
                blocks.append(block)
                block = PostingBlock()
            }
        }
        guard inner.offset == end else { throw error(.countMismatch, "\(what): entries do not fill their length", at: inner.offset) }
        offset = end
        return PostingList(blocks: blocks)
    }

    /// Checks one payload (docs/format/fulltext-index.md) and steps over it.
    mutating func checkPayload(format: PostingFormat, what: String) throws(IndexSnapshotError) {
        guard format.hasPositions else { return }
        var previousColumn: UInt64?
        while true {
            let header = try varint("\(what) group")
            guard header >> 1 >= 1 else { throw error(.invalidValue, "\(what): empty group") }
            var column: UInt64 = 0
            if format.columnCount > 1 { column = try varint("\(what) column") }
            guard column < UInt64(format.columnCount), previousColumn.map({ column > $0 }) ?? true else {
                throw error(.invalidValue, "\(what): column \(column) out of range or order")
            }
            previousColumn = column
            guard header >> 1 <= UInt64(remaining) else { throw error(.truncated, "\(what): positions run past the end") }
            let end = offset + Int(header >> 1)
            var position: UInt64 = 0
            var first = true
            while offset < end {
                let start = offset
                guard let value = PostingCoding.readVarint(UnsafeBufferPointer(rebasing: buffer[..<end]), &offset) else {
                    throw error(.invalidVarint, "\(what): a position runs past its group", at: start)
                }
                guard first || value >= 1 else { throw error(.outOfOrder, "\(what): positions not ascending", at: start) }
                position = first ? value : position &+ value
                first = false
                guard position <= FullTextIndex.SnapshotFormat.maximumPosition, value <= position else {
                    throw error(.invalidValue, "\(what): position past 2^31 - 1", at: start)
                }
            }
            if header & 1 == 0 { return }
        }
    }
}
