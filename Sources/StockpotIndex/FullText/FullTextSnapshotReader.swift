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
    /// The bitmap test is inlined into the posting loop (it runs once a posting).
    @inline(__always)
    func contains(_ id: Int64, hint: inout Int) -> Bool {
        if dense {
            let (offset, overflow) = id.subtractingReportingOverflow(lowest)
            guard !overflow, offset >= 0, offset < Int64(bits.count) * 64 else { return false }
            return bits[Int(offset) >> 6] & (1 << UInt64(offset & 63)) != 0
        }
        return sortedContains(id, hint: &hint)
    }

    private func sortedContains(_ id: Int64, hint: inout Int) -> Bool {
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
    ///
    /// The entries are read through a raw pointer with explicit bounds, and a payload is checked
    /// without throwing (see `checkedPayloadEnd`): this loop runs once per posting at every open.
    mutating func postingList(
        format: PostingFormat, members: FullTextDocumentIds?, what: StaticString
    ) throws(IndexSnapshotError) -> PostingList {
        let count = try self.count("\(what) count", minimumBytesEach: 1)
        let length = try self.count("\(what) length", minimumBytesEach: 1)
        guard count <= length else { throw error(.countMismatch, "\(what): \(count) entries cannot fit \(length) bytes") }
        let end = offset + length
        guard let base = buffer.baseAddress else {
            offset = end  // count == length == 0
            return PostingList(blocks: [])
        }
        var blocks: [PostingBlock] = []
        var block = PostingBlock()
        var position = offset
        var blockRest = position  // where the current block's bytes after its first id start
        var id: Int64 = 0
        var memberHint = 0
        for index in 0..<count {
            let entryStart = position
            guard let code = PostingCoding.readVarint(base, &position, end: end) else {
                throw error(position >= end ? .truncated : .invalidVarint, "bad or truncated varint (\(what) id)", at: entryStart)
            }
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
                blockRest = position
            }
            if format.hasPositions {
                // The usual payload of a one-column index (one group of one position byte) is
                // taken here, without the call; `checkedPayloadEnd` checks the rest.
                if format.columnCount == 1, end - position >= 2, base[position] == 2, base[position + 1] < 0x80 {
                    position += 2
                } else {
                    switch Self.checkedPayloadEnd(base, from: position, end: end, columnCount: format.columnCount) {
                    case .success(let payloadEnd): position = payloadEnd
                    case .failure(let failure): throw error(failure.code, "\(what): \(failure.problem)", at: failure.offset)
                    }
                }
            }
            block.count += 1
            block.lastId = id
            if position - blockRest >= PostingList.blockTargetBytes || index == count - 1 {
                block.bytes.append(contentsOf: UnsafeBufferPointer(start: base + blockRest, count: position - blockRest))
                blocks.append(block)
                block = PostingBlock()
            }
        }
        guard position == end else { throw error(.countMismatch, "\(what): entries do not fill their length", at: position) }
        offset = end
        return PostingList(blocks: blocks)
    }

    /// Why a payload is malformed, and where.
    struct PayloadFailure: Error {
        var code: IndexSnapshotError.Code
        var problem: String
        var offset: Int
    }

    /// Checks the payload at `start` (docs/format/fulltext-index.md: groups in ascending column
    /// order below `columnCount`, each a non-empty run of ascending positions below 2^31 that
    /// exactly fills its stated length) without reading at or past `end`; its end offset.
    @inline(__always)
    static func checkedPayloadEnd(
        _ base: UnsafePointer<UInt8>, from start: Int, end: Int, columnCount: Int
    ) -> Result<Int, PayloadFailure> {
        // The usual payload of a one-column index: one group, one position byte, no more groups.
        if columnCount == 1, end - start >= 2, base[start] == 2, base[start + 1] < 0x80 {
            return .success(start + 2)
        }
        var offset = start
        var nextColumn: UInt64 = 0  // the lowest column the next group may name
        while true {
            let headerStart = offset
            guard let header = PostingCoding.readVarint(base, &offset, end: end) else {
                return .failure(
                    PayloadFailure(
                        code: offset >= end ? .truncated : .invalidVarint, problem: "bad or truncated group varint", offset: headerStart))
            }
            let positionBytes = header >> 1
            guard positionBytes >= 1 else {
                return .failure(PayloadFailure(code: .invalidValue, problem: "empty group", offset: offset))
            }
            var column: UInt64 = 0
            if columnCount > 1 {
                let columnStart = offset
                guard let value = PostingCoding.readVarint(base, &offset, end: end) else {
                    return .failure(
                        PayloadFailure(
                            code: offset >= end ? .truncated : .invalidVarint, problem: "bad or truncated column varint",
                            offset: columnStart))
                }
                column = value
            }
            guard column < UInt64(columnCount), column >= nextColumn else {
                return .failure(PayloadFailure(code: .invalidValue, problem: "column \(column) out of range or order", offset: offset))
            }
            nextColumn = column + 1
            guard positionBytes <= UInt64(end - offset) else {
                return .failure(PayloadFailure(code: .truncated, problem: "positions run past the end", offset: offset))
            }
            let groupEnd = offset + Int(positionBytes)
            var position: UInt64 = 0
            var first = true
            while offset < groupEnd {
                let valueStart = offset
                guard let value = PostingCoding.readVarint(base, &offset, end: groupEnd) else {
                    return .failure(PayloadFailure(code: .invalidVarint, problem: "a position runs past its group", offset: valueStart))
                }
                guard first || value >= 1 else {
                    return .failure(PayloadFailure(code: .outOfOrder, problem: "positions not ascending", offset: valueStart))
                }
                position = first ? value : position &+ value
                first = false
                guard position <= FullTextIndex.SnapshotFormat.maximumPosition, value <= position else {
                    return .failure(PayloadFailure(code: .invalidValue, problem: "position past 2^31 - 1", offset: valueStart))
                }
            }
            if header & 1 == 0 { return .success(offset) }
        }
    }
}
