// The ordered index's snapshot bytes: writing the entries in order and reading them back with
// a bulk build (docs/format/ordered-index.md; the grammar is repeated here for the reader).
//
// Grammar (varint = unsigned LEB128, 7 bits a byte, low first, at most 10 bytes; zigzag maps
// 0, -1, 1, -2 ... to 0, 1, 2, 3 ...):
//
//     snapshot := version count entry*         (exactly count entries, no bytes after)
//     version  := 0x02 (written) | 0x01 (read: the same without the repeat tag)
//     count    := varint
//     entry    := tag payload idDelta
//     tag      := 0x00 null | 0x01 integer | 0x02 double | 0x03 text
//               | 0x04 repeat (version 2)                             (never reused)
//     payload  := (null) nothing | (integer) zigzag varint | (double) 8 bytes, the IEEE-754
//                 bit pattern little-endian | (text) varint byte length, then UTF-8 bytes
//               | (repeat) nothing: the value of the entry before, bit for bit
//     idDelta  := zigzag varint of id - previous id (wrapping; the previous id starts at 0)
//
//     OFFSET  SIZE   DESCRIPTION
//     0       1      version, 2
//     1       1-10   count
//     ...     2+     entries, strictly ascending by (value, id) in the index's order
//
// Example: version 2, three entries (null, 5), ("é", 7) and ("é", 9) is
// 02 03 | 00 0A | 03 02 C3 A9 04 | 04 04.
// Reading rejects, with an IndexSnapshotError and never a trap: a short buffer, another
// version, an unknown tag (a repeat in version 1 or as the first entry), an overlong varint,
// text that is not UTF-8, entries out of order or repeated, a count larger than the bytes can
// hold, and trailing bytes. The snapshot has no checksum of its own: the file that embeds it
// carries one.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension OrderedIndex {
    /// The snapshot format version this code writes; it reads this one and version 1 (the
    /// same bytes without the repeat tag).
    package static let snapshotVersion: UInt8 = 2

    /// The index's entries as snapshot bytes (format in `OrderedIndex+Snapshot.swift`).
    ///
    /// - Complexity: O(n).
    package func serialized() -> [UInt8] {
        var bytes: [UInt8] = [Self.snapshotVersion]
        bytes.reserveCapacity(1 + 10 + count * 6)
        Self.appendUnsignedVarint(UInt64(count), to: &bytes)
        var previousID: Int64 = 0
        // The entry before, for the repeat tag (its text stays valid: the index is not changed).
        var previous: OrderedIndexProbe?
        if let root = root?.block {
            Self.forEachLeaf(root) { leaf in
                for i in 0..<leaf.count {
                    let kind = leaf.kinds[i]
                    let current = leaf.probe(at: i)
                    let repeats = previous.map { Self.sameValueBitForBit($0, current) } ?? false
                    previous = current
                    let tag = repeats ? OrderedIndexTag.repeatValue : kind
                    bytes.append(tag)
                    switch tag {
                    case OrderedIndexTag.integer:
                        Self.appendSignedVarint(Int64(bitPattern: leaf.payloads[i]), to: &bytes)
                    case OrderedIndexTag.double:
                        withUnsafeBytes(of: leaf.payloads[i].littleEndian) { bytes.append(contentsOf: $0) }
                    case OrderedIndexTag.text:
                        Self.appendUnsignedVarint(UInt64(current.text.count), to: &bytes)
                        bytes.append(contentsOf: current.text)
                    default:
                        break  // null, and a repeat: no payload
                    }
                    let id = leaf.id(at: i)
                    Self.appendSignedVarint(id &- previousID, to: &bytes)
                    previousID = id
                }
            }
        }
        return bytes
    }

    /// Whether two entries' values are the same bits (kind, payload and text), so that the
    /// second can be written as a repeat of the first; `1` and `1.0` are not.
    @inline(__always)
    static func sameValueBitForBit(_ a: OrderedIndexProbe, _ b: OrderedIndexProbe) -> Bool {
        guard a.kind == b.kind, a.payload == b.payload else { return false }
        guard a.kind == OrderedIndexTag.text else { return true }
        return a.text.count == b.text.count && (a.text.isEmpty || memcmp(a.text.baseAddress!, b.text.baseAddress!, a.text.count) == 0)
    }

    /// Reads an index from snapshot bytes, with the default node sizes.
    ///
    /// - Throws: ``IndexSnapshotError`` when the bytes are not a well-formed snapshot.
    /// - Complexity: O(n); no sort, as the entries arrive in order.
    package init(deserializing bytes: UnsafeRawBufferPointer) throws(IndexSnapshotError) {
        try self.init(deserializing: bytes, leafCapacity: 64, branchCapacity: 64)
    }

    /// Reads an index from snapshot bytes, with the given node sizes.
    package init(
        deserializing bytes: UnsafeRawBufferPointer, leafCapacity: Int, branchCapacity: Int
    ) throws(IndexSnapshotError) {
        self.init(leafCapacity: leafCapacity, branchCapacity: branchCapacity)
        // Ids go into 4-byte columns; an id they cannot hold starts the read over with 8-byte
        // ones.
        if try !read(bytes, narrowIDs: true) {
            narrowIDs = false
            _ = try read(bytes, narrowIDs: false)
        }
    }

    /// Reads the entries of snapshot `bytes` into this empty index, in nodes with `narrowIDs`;
    /// false, with the index left empty, when `narrowIDs` and an id does not fit 4 bytes.
    private mutating func read(
        _ bytes: UnsafeRawBufferPointer, narrowIDs: Bool
    ) throws(IndexSnapshotError) -> Bool {
        var reader = OrderedIndexSnapshotReader(bytes)
        let version = try reader.readByte("the version")
        guard version == Self.snapshotVersion || version == 1 else {
            throw IndexSnapshotError(.unsupportedVersion, "version \(version), expected 1 or 2", offset: 0)
        }
        // Version 1 has no repeat tag: it is an unknown tag there.
        let repeatTag = version >= 2 ? OrderedIndexTag.repeatValue : 0xFF
        let countOffset = reader.offset
        let declared = try reader.readUnsignedVarint("the entry count")
        // Every entry takes at least two bytes (a tag and an id delta).
        guard declared <= UInt64(reader.remaining / 2) && declared <= UInt64(Int32.max) else {
            throw IndexSnapshotError(
                .countMismatch, "\(declared) entries cannot fit in \(reader.remaining) bytes", offset: countOffset)
        }
        let entryCount = Int(declared)
        // Entries go straight into their final leaves (full, evenly cut, as a bulk build makes
        // them), each leaf's text into one exactly sized store (a text equal to the one before
        // in the leaf shares its bytes); texts and the order check read the snapshot bytes in
        // place.
        let leafCount = (entryCount + leafCapacity - 1) / leafCapacity
        var leaves: [OrderedIndexNode] = []
        leaves.reserveCapacity(leafCount)
        // One leaf's text and spans are staged here, then copied into its exactly sized store.
        var arena = OrderedIndexTextStaging()
        defer { arena.deallocate() }
        let spans = UnsafeMutablePointer<UInt64>.allocate(capacity: leafCapacity)
        spans.initialize(repeating: 0, count: leafCapacity)
        defer { spans.deallocate() }
        var previous = OrderedIndexProbe(kind: 0, payload: 0, id: 0, text: UnsafeRawBufferPointer(start: nil, count: 0))
        var previousID: Int64 = 0
        var leafStart = 0
        // The entries are read through a raw pointer with explicit bounds (this loop runs for
        // every entry of every index at each open); `base` is non-nil, as the version byte was read.
        let base = bytes.baseAddress!
        let end = bytes.count
        var offset = reader.offset
        for leafNumber in 0..<leafCount {
            let leafEnd = entryCount * (leafNumber + 1) / leafCount
            let leaf = OrderedIndexNode(isLeaf: true, slots: leafCapacity, narrowIDs: narrowIDs)
            let block = leaf.block
            let (kinds, payloads) = (block.kinds, block.payloads)
            arena.count = 0
            var hasText = false
            for i in leafStart..<leafEnd {
                let entryOffset = offset
                guard offset < end else { throw Self.truncated("an entry tag", at: offset) }
                let kind = base.load(fromByteOffset: offset, as: UInt8.self)
                offset += 1
                var payload: UInt64 = 0
                var text = UnsafeRawBufferPointer(start: nil, count: 0)
                var sameValueAsPrevious = false
                switch kind {
                case OrderedIndexTag.null:
                    break
                case OrderedIndexTag.integer:
                    payload = Self.unzigzag(try Self.varint(base, &offset, end, "an integer value"))
                case OrderedIndexTag.double:
                    guard end - offset >= 8 else { throw Self.truncated("a double value", at: offset) }
                    payload = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                    offset += 8
                case OrderedIndexTag.text:
                    let length = try Self.varint(base, &offset, end, "a text length")
                    guard length <= UInt64(end - offset) else {
                        throw IndexSnapshotError(.truncated, "text of \(length) bytes runs past the end", offset: offset)
                    }
                    guard arena.count + Int(length) <= Int(Int32.max) else {
                        throw IndexSnapshotError(.countMismatch, "text over 2 GiB in one node", offset: offset)
                    }
                    text = UnsafeRawBufferPointer(start: base + offset, count: Int(length))
                    if previous.kind == OrderedIndexTag.text, previous.text.count == text.count,
                        text.isEmpty || memcmp(text.baseAddress!, previous.text.baseAddress!, text.count) == 0
                    {
                        // The same value as the entry before (common in an index of few
                        // distinct values): already checked as UTF-8, and the order is the ids'.
                        sameValueAsPrevious = true
                    } else if !OrderedIndexSnapshotReader.isASCII(text),
                        let bad = OrderedIndexSnapshotReader.firstInvalidUTF8(text)
                    {
                        throw IndexSnapshotError(.invalidText, "a text value is not UTF-8", offset: offset + bad)
                    }
                    offset += text.count
                    payload = sameValueAsPrevious ? previous.payload : OrderedIndexOrder.textPrefix(text)
                    if sameValueAsPrevious && i > leafStart {
                        spans[i - leafStart] = spans[i - leafStart - 1]  // shared with the entry before
                    } else {
                        spans[i - leafStart] = UInt64(arena.count) << 32 | UInt64(text.count)
                        arena.append(text)
                    }
                    hasText = true
                case repeatTag where i > 0:
                    // The value of the entry before, already checked: only its id is read, and
                    // the order is the ids'. (Most entries of an index of few values take this
                    // path, so it stores the entry itself and goes on to the next.)
                    let id = previousID &+ Int64(bitPattern: Self.unzigzag(try Self.varint(base, &offset, end, "an id")))
                    guard previousID < id else {
                        throw IndexSnapshotError(.outOfOrder, "entry \(i) is not after entry \(i - 1)", offset: entryOffset)
                    }
                    if previous.kind == OrderedIndexTag.text && i > leafStart {
                        spans[i - leafStart] = spans[i - leafStart - 1]  // shared with the entry before
                    } else if previous.kind == OrderedIndexTag.text {
                        guard arena.count + previous.text.count <= Int(Int32.max) else {
                            throw IndexSnapshotError(.countMismatch, "text over 2 GiB in one node", offset: entryOffset)
                        }
                        spans[i - leafStart] = UInt64(arena.count) << 32 | UInt64(previous.text.count)
                        arena.append(previous.text)
                        hasText = true
                    }
                    previousID = id
                    previous.id = id
                    let slot = i - leafStart
                    kinds[slot] = previous.kind
                    payloads[slot] = previous.payload
                    guard !narrowIDs || OrderedIndexBlock.fitsNarrowID(id) else { return false }
                    block.setID(id, at: slot)
                    continue
                default:
                    throw IndexSnapshotError(.invalidTag, "unknown value tag \(kind)", offset: entryOffset)
                }
                let id = previousID &+ Int64(bitPattern: Self.unzigzag(try Self.varint(base, &offset, end, "an id")))
                previousID = id
                let current = OrderedIndexProbe(kind: kind, payload: payload, id: id, text: text)
                // Nulls and integers of one kind compare as integers (nulls' payloads are 0).
                // Two doubles compare as doubles unless one is NaN, and two texts by their
                // prefixes when those differ; the rest takes the general comparison.
                let inOrder: Bool
                if sameValueAsPrevious {
                    inOrder = previous.id < id
                } else if kind != previous.kind {
                    inOrder = OrderedIndexOrder.ascending(previous, current)
                } else if kind == OrderedIndexTag.integer || kind == OrderedIndexTag.null {
                    let (before, after) = (Int64(bitPattern: previous.payload), Int64(bitPattern: payload))
                    inOrder = before < after || (before == after && previous.id < id)
                } else if kind == OrderedIndexTag.double {
                    let (before, after) = (Double(bitPattern: previous.payload), Double(bitPattern: payload))
                    if before < after {
                        inOrder = true
                    } else if before == after {
                        inOrder = previous.id < id
                    } else {
                        inOrder = OrderedIndexOrder.ascending(previous, current)
                    }
                } else if previous.payload != payload {
                    inOrder = previous.payload < payload
                } else {
                    inOrder = OrderedIndexOrder.ascending(previous, current)
                }
                if i > 0 && !inOrder {
                    throw IndexSnapshotError(
                        .outOfOrder, "entry \(i) is not after entry \(i - 1)", offset: entryOffset)
                }
                previous = current
                let slot = i - leafStart
                kinds[slot] = kind
                payloads[slot] = payload
                guard !narrowIDs || OrderedIndexBlock.fitsNarrowID(id) else { return false }
                block.setID(id, at: slot)
            }
            block.count = leafEnd - leafStart
            block.subtreeCount = leafEnd - leafStart
            if hasText {
                leaf.installTextStore(spans: spans, arena: arena.bytes)
            }
            leaves.append(leaf)
            leafStart = leafEnd
        }
        guard offset == end else {
            throw IndexSnapshotError(.countMismatch, "\(end - offset) bytes after the last entry", offset: offset)
        }
        root = Self.buildBranches(over: leaves, branchCapacity: branchCapacity)
        count = entryCount
        return true
    }

    /// An unsigned LEB128 varint (at most 10 bytes, 64 bits) at `offset`, read without passing
    /// `end` (`PostingCoding.readVarint`); advances past it.
    @inline(__always)
    static func varint(
        _ base: UnsafeRawPointer, _ offset: inout Int, _ end: Int, _ what: StaticString
    ) throws(IndexSnapshotError) -> UInt64 {
        let start = offset
        if let value = PostingCoding.readVarint(base.assumingMemoryBound(to: UInt8.self), &offset, end: end) {
            return value
        }
        // Nine bytes with their continuation bit set then a tenth that does not fit 64 bits,
        // or the bytes ended first.
        if end - start >= 10 {
            throw IndexSnapshotError(.invalidVarint, "\(what) overflows 64 bits", offset: start)
        }
        throw truncated(what, at: end)
    }

    /// The signed value of a zigzag code (0, 1, 2, 3 ... for 0, -1, 1, -2 ...), as a bit pattern.
    @inline(__always)
    static func unzigzag(_ code: UInt64) -> UInt64 {
        (code >> 1) ^ (0 &- (code & 1))
    }

    @inline(never)
    static func truncated(_ what: StaticString, at offset: Int) -> IndexSnapshotError {
        IndexSnapshotError(.truncated, "the bytes end inside \(what)", offset: offset)
    }

    /// Calls `body` with each leaf block under `block`, in order.
    static func forEachLeaf(_ block: OrderedIndexBlock, _ body: (OrderedIndexBlock) -> Void) {
        if block.isLeaf {
            body(block)
            return
        }
        for i in 0..<block.childCount {
            forEachLeaf(block.childBlock(at: i), body)
        }
    }

    static func appendUnsignedVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    static func appendSignedVarint(_ value: Int64, to bytes: inout [UInt8]) {
        appendUnsignedVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &bytes)
    }
}

/// A growable byte buffer for one leaf's text while a snapshot is read (no array
/// bookkeeping per append); the owner deallocates it.
struct OrderedIndexTextStaging {
    private var base = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 8)
    private var capacity = 4096
    var count = 0

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    @inline(__always)
    mutating func append(_ text: UnsafeRawBufferPointer) {
        guard let source = text.baseAddress, !text.isEmpty else { return }
        if count + text.count > capacity {
            let grown = max(count + text.count, 2 * capacity)
            let fresh = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
            fresh.copyMemory(from: base, byteCount: count)
            base.deallocate()
            (base, capacity) = (fresh, grown)
        }
        (base + count).copyMemory(from: source, byteCount: text.count)
        count += text.count
    }

    func deallocate() {
        base.deallocate()
    }
}
