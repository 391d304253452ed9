// The byte coding of posting lists, in memory and in snapshots (docs/format/fulltext-index.md):
// LEB128 varints, and an entry's payload, the token's positions grouped by column.

/// How the entries of one posting list are coded; see docs/format/fulltext-index.md.
struct PostingFormat: Sendable, Hashable {
    /// The number of indexed columns; the column number is written only when above 1.
    var columnCount: Int
    /// False for the list of document ids, whose entries have no payload.
    var hasPositions: Bool
}

/// The positions of one token in one column of one entry: ascending, 0-based token indexes.
struct PositionGroup: Sendable, Hashable {
    var column: Int
    var positions: [Int]
}

/// Varint and payload coding: writers `append*`, readers `read*` advance an offset.
///
/// A payload is one or more groups, in ascending column order:
/// `varint(positionBytes << 1 | more)`, the column when `columnCount > 1`, then `positionBytes`
/// bytes of varints: the first position and each position's distance from the one before.
/// Leading with the byte length lets a scan step over a group without decoding it.
enum PostingCoding {
    /// Appends an unsigned LEB128 varint: 7 bits a byte, low group first, high bit = more.
    @inline(__always)
    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// The length of a value's varint.
    @inline(__always)
    static func varintLength(_ value: UInt64) -> Int {
        (64 - (value | 1).leadingZeroBitCount + 6) / 7
    }

    /// Reads a varint written by `appendVarint` at `offset` and advances past it; nil when the
    /// bytes end first, or the varint is longer than 10 bytes or overflows 64 bits.
    @inline(__always)
    static func readVarint(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            if shift == 63 && byte > 1 { return nil }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift > 63 { return nil }
        }
        return nil
    }

    /// `readVarint` over raw bytes that end at `end` (exclusive): the loop that snapshot reading
    /// runs for every id and position.
    @inline(__always)
    static func readVarint(_ base: UnsafePointer<UInt8>, _ offset: inout Int, end: Int) -> UInt64? {
        if offset < end {
            let byte = base[offset]
            if byte < 0x80 {
                offset += 1
                return UInt64(byte)
            }
            // Two and three bytes (ids of up to 2^21 apart: an index not in id order) unrolled;
            // longer ones, and any that runs to `end`, take the loop below.
            if end - offset >= 3 {
                let second = base[offset + 1]
                if second < 0x80 {
                    offset += 2
                    return UInt64(byte & 0x7F) | UInt64(second) << 7
                }
                let third = base[offset + 2]
                if third < 0x80 {
                    offset += 3
                    return UInt64(byte & 0x7F) | UInt64(second & 0x7F) << 7 | UInt64(third) << 14
                }
            }
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while offset < end {
            let byte = base[offset]
            offset += 1
            if shift == 63 && byte > 1 { return nil }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift > 63 { return nil }
        }
        return nil
    }

    /// Appends one group of positions (ascending).
    static func appendGroup(
        column: Int, positions: some Collection<Int>, more: Bool, format: PostingFormat, to bytes: inout [UInt8]
    ) {
        var length = 0
        var previous = 0
        for position in positions {
            length += varintLength(UInt64(position - previous))
            previous = position
        }
        appendVarint(UInt64(length) << 1 | (more ? 1 : 0), to: &bytes)
        if format.columnCount > 1 { appendVarint(UInt64(column), to: &bytes) }
        previous = 0
        for position in positions {
            appendVarint(UInt64(position - previous), to: &bytes)
            previous = position
        }
    }

    /// Appends an entry's payload: its groups in ascending column order.
    static func appendPayload(_ groups: [PositionGroup], format: PostingFormat, to bytes: inout [UInt8]) {
        guard format.hasPositions else { return }
        for (index, group) in groups.enumerated() {
            appendGroup(
                column: group.column, positions: group.positions, more: index + 1 < groups.count,
                format: format, to: &bytes)
        }
    }

    /// Steps over one payload of our own bytes; with `column`, also reports whether it has a
    /// group in that column.
    @inline(__always)
    static func skipPayload(
        _ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int, format: PostingFormat,
        column: Int? = nil, found: inout Bool
    ) {
        guard format.hasPositions else { return }
        while true {
            let header = readVarint(bytes, &offset) ?? 0
            if format.columnCount > 1 {
                let stored = readVarint(bytes, &offset) ?? 0
                if let column, stored == UInt64(column) { found = true }
            } else if column == 0 {
                found = true
            }
            offset += Int(header >> 1)
            if header & 1 == 0 { return }
        }
    }

    /// Steps over one payload of our own bytes: the lean loop of id-only scans.
    @inline(__always)
    static func skipPayloadFast(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int, columnCount: Int) {
        while true {
            var header = UInt64(bytes[offset])
            offset += 1
            if header >= 0x80 {
                offset -= 1
                header = readVarint(bytes, &offset) ?? 0
            }
            if columnCount > 1 {
                while bytes[offset] >= 0x80 { offset += 1 }
                offset += 1
            }
            offset += Int(header >> 1)
            if header & 1 == 0 { return }
        }
    }

    /// Decodes one payload at `offset` into its groups (our own bytes: trusted).
    static func readPayload(
        _ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int, format: PostingFormat
    ) -> [PositionGroup] {
        guard format.hasPositions else { return [] }
        var groups: [PositionGroup] = []
        while true {
            let header = readVarint(bytes, &offset) ?? 0
            let column = format.columnCount > 1 ? Int(readVarint(bytes, &offset) ?? 0) : 0
            var positions: [Int] = []
            readPositions(bytes, &offset, length: Int(header >> 1), into: &positions)
            groups.append(PositionGroup(column: column, positions: positions))
            if header & 1 == 0 { return groups }
        }
    }

    /// Appends the positions coded in the `length` bytes at `offset` and steps past them.
    @inline(__always)
    static func readPositions(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int, length: Int, into positions: inout [Int]) {
        let end = offset + length
        var position = 0
        var first = true
        while offset < end {
            let value = Int(readVarint(bytes, &offset) ?? 0)
            position = first ? value : position + value
            first = false
            positions.append(position)
        }
    }
}
