// Byte-level edits of one posting block: find where an id is or would go, splice an entry in or
// out (re-coding the next entry's distance), filter out a set of ids, split in two.

extension PostingList {
    /// Where an id is, or would go, in a block.
    struct Location {
        /// The offset of the first entry whose id is at least the target (`bytes.count` if none).
        var start: Int
        /// The id of the entry before `start`, nil when `start` is the first entry.
        var previousId: Int64?
        /// The id of the entry at `start`, nil at the end.
        var foundId: Int64?
        /// The end of that entry's id varint, and of the whole entry.
        var codeEnd: Int
        var entryEnd: Int
    }

    /// The id code of `id` after `previous` (absolute when first).
    @inline(__always)
    static func code(_ id: Int64, after previous: Int64?) -> UInt64 {
        previous.map { UInt64(bitPattern: id &- $0) } ?? UInt64(bitPattern: id)
    }

    /// Scans a block for the first entry whose id is at least `target`.
    static func locate(_ target: Int64, in block: PostingBlock, format: PostingFormat) -> Location {
        block.bytes.withUnsafeBufferPointer { bytes in
            var offset = 0
            var previous: Int64?
            var id: Int64 = 0
            var unused = false
            while offset < bytes.count {
                let start = offset
                let code = Int64(bitPattern: PostingCoding.readVarint(bytes, &offset) ?? 0)
                id = previous == nil ? code : id &+ code
                let codeEnd = offset
                PostingCoding.skipPayload(bytes, &offset, format: format, found: &unused)
                if id >= target {
                    return Location(start: start, previousId: previous, foundId: id, codeEnd: codeEnd, entryEnd: offset)
                }
                previous = id
            }
            return Location(start: offset, previousId: previous, foundId: nil, codeEnd: offset, entryEnd: offset)
        }
    }

    /// Puts an entry into a block in id order (replacing the payload of an equal id).
    ///
    /// - Returns: whether the block has one entry more.
    static func splice(_ id: Int64, payload: [UInt8], into block: inout PostingBlock, format: PostingFormat) -> Bool {
        let at = locate(id, in: block, format: format)
        if at.foundId == id {
            block.bytes.replaceSubrange(at.codeEnd..<at.entryEnd, with: payload)
            return false
        }
        var piece: [UInt8] = []
        piece.reserveCapacity(payload.count + 20)
        PostingCoding.appendVarint(code(id, after: at.previousId), to: &piece)
        piece += payload
        if let next = at.foundId {
            PostingCoding.appendVarint(code(next, after: id), to: &piece)
            block.bytes.replaceSubrange(at.start..<at.codeEnd, with: piece)
        } else {
            block.bytes += piece
            block.lastId = id
        }
        block.count += 1
        return true
    }

    /// Takes the entry with `id` out of a block; the next entry's distance is re-coded.
    ///
    /// - Returns: whether there was such an entry.
    static func splice(removing id: Int64, from block: inout PostingBlock, format: PostingFormat) -> Bool {
        let at = locate(id, in: block, format: format)
        guard at.foundId == id else { return false }
        if at.entryEnd < block.bytes.count {
            var offset = at.entryEnd
            let distance = block.bytes.withUnsafeBufferPointer { PostingCoding.readVarint($0, &offset) ?? 0 }
            let next = id &+ Int64(bitPattern: distance)
            var piece: [UInt8] = []
            PostingCoding.appendVarint(code(next, after: at.previousId), to: &piece)
            block.bytes.replaceSubrange(at.start..<offset, with: piece)
        } else {
            block.bytes.removeSubrange(at.start...)
            block.lastId = at.previousId ?? 0
        }
        block.count -= 1
        return true
    }

    /// Rewrites a block without the entries whose ids are in `ids` (ascending).
    static func filter(_ block: inout PostingBlock, removing ids: [Int64], format: PostingFormat) {
        var kept = PostingBlock()
        var keptPrevious: Int64?
        block.bytes.withUnsafeBufferPointer { bytes in
            var offset = 0
            var id: Int64 = 0
            var cursor = 0  // into `ids`
            var unused = false
            for index in 0..<Int(block.count) {
                let code = Int64(bitPattern: PostingCoding.readVarint(bytes, &offset) ?? 0)
                id = index == 0 ? code : id &+ code
                let payloadStart = offset
                PostingCoding.skipPayload(bytes, &offset, format: format, found: &unused)
                while cursor < ids.count, ids[cursor] < id { cursor += 1 }
                if cursor < ids.count, ids[cursor] == id { continue }
                PostingCoding.appendVarint(Self.code(id, after: keptPrevious), to: &kept.bytes)
                kept.bytes.append(contentsOf: bytes[payloadStart..<offset])
                kept.count += 1
                kept.lastId = id
                keptPrevious = id
            }
        }
        block = kept
    }

    /// Cuts a block in two at its middle entry, which becomes the second block's first (its id
    /// coded whole).
    static func split(_ block: PostingBlock, format: PostingFormat) -> (PostingBlock, PostingBlock) {
        block.bytes.withUnsafeBufferPointer { bytes in
            var offset = 0
            var id: Int64 = 0
            var previous: Int64 = 0
            var unused = false
            let middle = Int(block.count) / 2
            for index in 0..<Int(block.count) {
                let start = offset
                let code = Int64(bitPattern: PostingCoding.readVarint(bytes, &offset) ?? 0)
                previous = id
                id = index == 0 ? code : id &+ code
                if index == middle {
                    let lower = PostingBlock(bytes: Array(bytes[..<start]), lastId: previous, count: Int32(middle))
                    var upper = PostingBlock(bytes: [], lastId: block.lastId, count: block.count - Int32(middle))
                    upper.bytes.reserveCapacity(bytes.count - start + 10)
                    PostingCoding.appendVarint(UInt64(bitPattern: id), to: &upper.bytes)
                    upper.bytes.append(contentsOf: bytes[offset...])
                    return (lower, upper)
                }
                PostingCoding.skipPayload(bytes, &offset, format: format, found: &unused)
            }
            return (block, PostingBlock())  // unreachable for a block of 2 or more entries
        }
    }

    /// An entry decoded from a block: its id and its payload bytes.
    struct DecodedEntry {
        var id: Int64
        var payload: ArraySlice<UInt8>
    }

    /// Decodes a block's entries (for checks and tests; the writers splice instead).
    static func decode(_ block: PostingBlock, format: PostingFormat) -> [DecodedEntry] {
        var entries: [DecodedEntry] = []
        block.bytes.withUnsafeBufferPointer { bytes in
            var offset = 0
            var id: Int64 = 0
            var unused = false
            for index in 0..<Int(block.count) {
                let code = Int64(bitPattern: PostingCoding.readVarint(bytes, &offset) ?? 0)
                id = index == 0 ? code : id &+ code
                let start = offset
                PostingCoding.skipPayload(bytes, &offset, format: format, found: &unused)
                entries.append(DecodedEntry(id: id, payload: block.bytes[start..<offset]))
            }
        }
        return entries
    }
}
