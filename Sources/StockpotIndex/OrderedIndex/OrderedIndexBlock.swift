// The raw block behind every ordered-index node: a header, parallel entry columns, and for a
// branch its children's counts, references and block addresses; with the searches on it.
import StockpotJSON

/// A view of a node's malloc'ed block. Lookups walk from block to block (a branch keeps its
/// children's block addresses), touching neither node objects nor reference counts.
///
/// Layout for `n` slots (native byte order, in memory only):
///
///     OFFSET           SIZE       DESCRIPTION
///     0                4          count: Int32, entries (leaf) or separators (branch)
///     4                4          childCount: Int32, a branch's children (count + 1 at rest)
///     8                4          slotCapacity: Int32, n
///     12               1          isLeaf: 1 for a leaf
///     13               1          appendHint: 1 when the last insertion went after the end
///     14               1          narrowIDs: 1 when the ids column holds UInt32s
///     15               1          narrowSpans: 1 when the text store's spans are UInt32s
///     16               8          subtreeCount: Int, entries under the node
///     24               8          textStore: the text store's address (malloc'ed), or 0
///     32               4          arenaUsed: Int32, arena bytes in use (live or dead)
///     36               4          arenaCapacity: Int32
///     40               4          deadBytes: Int32, arena bytes no entry refers to
///     44               4          kindsOffset: Int32, 48 + 8n + i (where the kinds start)
///     48               8n         payloads: UInt64 (number: bit pattern; text: its first 8
///                                 bytes big-endian, zero-padded; null: 0)
///     48 + 8n          i          ids: UInt32 when narrow (i = 4n rounded up to a multiple
///                                 of 8), else Int64 (i = 8n); read and written raw
///     48 + 8n + i      k          kinds: UInt8 tags; k = n rounded up to a multiple of 8
///     48 + 8n + i + k  8(n + 1)   branch: childCounts: Int, entries under each child
///     ...              8(n + 1)   branch: children: strong node references
///     ...              8(n + 1)   branch: childBlocks: the children's block addresses
///
/// Ids are narrow while every id of the index lies in 0...UInt32.max (entry ids count up from
/// 1, so practically always): 4 bytes less per entry. All blocks of one index have the same
/// width (``OrderedIndex/narrowIDs``); an index given a wider id is rebuilt wide.
///
/// Child `i` of a branch holds the entries at or above separator `i - 1` and below separator
/// `i`. Blocks never move (their capacity is fixed when made).
///
/// A node that has held text has a text store, made on its first text and moved as it grows:
/// `n` spans (meaningful for text entries only, in slot order), then the arena of
/// `arenaCapacity` bytes, the texts back to back. A span is the text's arena offset and byte
/// length: UInt32 (offset << 16 | length; the column rounded up to a multiple of 8 bytes) while
/// the arena's capacity is at most 65,535 bytes, as nearly every leaf's is, else UInt64
/// (offset << 32 | length); ``span(at:)`` reads either as the UInt64 form. Searches compare
/// text prefixes in `payloads` and read the arena only when two prefixes are equal.
@usableFromInline
struct OrderedIndexBlock {
    let base: UnsafeMutableRawPointer

    static let headerSize = 48

    @inline(__always) init(_ base: UnsafeMutableRawPointer) { self.base = base }

    @inline(__always) static func kindsSize(_ slots: Int) -> Int { (slots + 7) & ~7 }

    /// Bytes of a column of `slots` 4-byte values (`narrow`) or 8-byte ones: the ids, and a
    /// text store's spans. A multiple of 8, so that what follows stays aligned.
    @inline(__always) static func columnSize(_ slots: Int, narrow: Bool) -> Int {
        narrow ? (4 * slots + 7) & ~7 : 8 * slots
    }

    /// Bytes of a block with `slots` slots.
    static func size(slots: Int, isLeaf: Bool, narrowIDs: Bool) -> Int {
        headerSize + 8 * slots + columnSize(slots, narrow: narrowIDs) + kindsSize(slots) + (isLeaf ? 0 : 24 * (slots + 1))
    }

    /// Whether `id` can be stored in a narrow ids column.
    @inline(__always) static func fitsNarrowID(_ id: Int64) -> Bool {
        UInt64(bitPattern: id) <= UInt64(UInt32.max)
    }

    // MARK: - Header

    var count: Int {
        @inline(__always) get { Int(base.load(fromByteOffset: 0, as: Int32.self)) }
        nonmutating set { base.storeBytes(of: Int32(newValue), toByteOffset: 0, as: Int32.self) }
    }
    var childCount: Int {
        @inline(__always) get { Int(base.load(fromByteOffset: 4, as: Int32.self)) }
        nonmutating set { base.storeBytes(of: Int32(newValue), toByteOffset: 4, as: Int32.self) }
    }
    var slotCapacity: Int {
        @inline(__always) get { Int(base.load(fromByteOffset: 8, as: Int32.self)) }
        nonmutating set { base.storeBytes(of: Int32(newValue), toByteOffset: 8, as: Int32.self) }
    }
    var isLeaf: Bool {
        @inline(__always) get { base.load(fromByteOffset: 12, as: UInt8.self) != 0 }
        nonmutating set { base.storeBytes(of: newValue ? 1 : 0, toByteOffset: 12, as: UInt8.self) }
    }
    var appendHint: Bool {
        @inline(__always) get { base.load(fromByteOffset: 13, as: UInt8.self) != 0 }
        nonmutating set { base.storeBytes(of: newValue ? 1 : 0, toByteOffset: 13, as: UInt8.self) }
    }
    var narrowIDs: Bool {
        @inline(__always) get { base.load(fromByteOffset: 14, as: UInt8.self) != 0 }
        nonmutating set { base.storeBytes(of: newValue ? 1 : 0, toByteOffset: 14, as: UInt8.self) }
    }
    var kindsOffset: Int {
        @inline(__always) get { Int(base.load(fromByteOffset: 44, as: Int32.self)) }
        nonmutating set { base.storeBytes(of: Int32(newValue), toByteOffset: 44, as: Int32.self) }
    }
    var subtreeCount: Int {
        @inline(__always) get { base.load(fromByteOffset: 16, as: Int.self) }
        nonmutating set { base.storeBytes(of: newValue, toByteOffset: 16, as: Int.self) }
    }
    var textStore: UnsafeMutableRawPointer? {
        @inline(__always) get { base.load(fromByteOffset: 24, as: UnsafeMutableRawPointer?.self) }
        nonmutating set { base.storeBytes(of: newValue, toByteOffset: 24, as: UnsafeMutableRawPointer?.self) }
    }
    var arenaUsed: Int {
        @inline(__always) get { Int(base.load(fromByteOffset: 32, as: Int32.self)) }
        nonmutating set { base.storeBytes(of: Int32(newValue), toByteOffset: 32, as: Int32.self) }
    }
    var arenaCapacity: Int {
        @inline(__always) get { Int(base.load(fromByteOffset: 36, as: Int32.self)) }
        nonmutating set { base.storeBytes(of: Int32(newValue), toByteOffset: 36, as: Int32.self) }
    }
    var deadBytes: Int {
        @inline(__always) get { Int(base.load(fromByteOffset: 40, as: Int32.self)) }
        nonmutating set { base.storeBytes(of: Int32(newValue), toByteOffset: 40, as: Int32.self) }
    }

    var narrowSpans: Bool {
        @inline(__always) get { base.load(fromByteOffset: 15, as: UInt8.self) != 0 }
        nonmutating set { base.storeBytes(of: newValue ? 1 : 0, toByteOffset: 15, as: UInt8.self) }
    }

    /// The text store's arena (only when there is a store).
    var arena: UnsafeMutableRawPointer {
        @inline(__always) get { textStore! + Self.columnSize(slotCapacity, narrow: narrowSpans) }
    }

    // MARK: - Spans

    /// The largest arena whose spans are narrow (16-bit offsets and lengths).
    static let narrowArenaLimit = 0xFFFF

    /// Entry `i`'s span as offset << 32 | length (only when there is a text store; meaningful
    /// for text entries only).
    @inline(__always) func span(at i: Int) -> UInt64 {
        Self.span(in: UnsafeRawPointer(textStore!), at: i, narrow: narrowSpans)
    }

    /// Span `i` of a text store's spans, as offset << 32 | length.
    @inlinable @inline(__always) static func span(in spans: UnsafeRawPointer, at i: Int, narrow: Bool) -> UInt64 {
        guard narrow else { return spans.load(fromByteOffset: 8 * i, as: UInt64.self) }
        let packed = UInt64(spans.load(fromByteOffset: 4 * i, as: UInt32.self))
        return (packed >> 16) << 32 | (packed & 0xFFFF)
    }

    /// Sets entry `i`'s span (offset << 32 | length, within the arena).
    @inline(__always) func setSpan(_ span: UInt64, at i: Int) {
        Self.setSpan(span, in: textStore!, at: i, narrow: narrowSpans)
    }

    /// Sets span `i` of a text store's spans.
    ///
    /// - Precondition: A narrow span's offset and length fit 16 bits (programmer error: spans
    ///   are narrow only in arenas of at most ``narrowArenaLimit`` bytes).
    @inline(__always) static func setSpan(_ span: UInt64, in spans: UnsafeMutableRawPointer, at i: Int, narrow: Bool) {
        guard narrow else { return spans.storeBytes(of: span, toByteOffset: 8 * i, as: UInt64.self) }
        let (offset, length) = textSpan(span)
        precondition(offset <= narrowArenaLimit && length <= narrowArenaLimit, "OrderedIndex: a wide span in a narrow text store")
        spans.storeBytes(of: UInt32(offset << 16 | length), toByteOffset: 4 * i, as: UInt32.self)
    }

    /// Moves spans `from..<from + count` to start at slot `to` (the ranges may overlap).
    @inline(__always) func moveSpans(from: Int, to: Int, count: Int) {
        Self.move(in: textStore!, width: narrowSpans ? 4 : 8, from: from, to: to, count: count)
    }

    /// Moves values `from..<from + count` of a column of `width`-byte values to start at `to`
    /// (the ranges may overlap).
    @inline(__always) private static func move(
        in column: UnsafeMutableRawPointer, width: Int, from: Int, to: Int, count: Int
    ) {
        (column + width * to).copyMemory(from: column + width * from, byteCount: width * count)
    }

    // MARK: - Columns

    var payloads: UnsafeMutablePointer<UInt64> {
        @inline(__always) get { (base + Self.headerSize).assumingMemoryBound(to: UInt64.self) }
    }
    /// Where the ids column starts; it is read and written raw (``id(at:)``, ``setID(_:at:)``).
    var idColumn: UnsafeMutableRawPointer {
        @inline(__always) get { base + Self.headerSize + 8 * slotCapacity }
    }
    /// Bytes an id takes in this block's ids column.
    var idWidth: Int {
        @inline(__always) get { narrowIDs ? 4 : 8 }
    }
    var kinds: UnsafeMutablePointer<UInt8> {
        @inline(__always) get { (base + kindsOffset).assumingMemoryBound(to: UInt8.self) }
    }
    /// Where a branch's child area (counts, then references, then block addresses) starts.
    var childArea: UnsafeMutableRawPointer {
        @inline(__always) get { base + kindsOffset + Self.kindsSize(slotCapacity) }
    }
    var childCounts: UnsafeMutablePointer<Int> {
        @inline(__always) get { childArea.assumingMemoryBound(to: Int.self) }
    }
    var children: UnsafeMutablePointer<OrderedIndexNode> {
        @inline(__always) get { (childArea + 8 * (slotCapacity + 1)).assumingMemoryBound(to: OrderedIndexNode.self) }
    }
    var childBlocks: UnsafeMutablePointer<UnsafeMutableRawPointer> {
        @inline(__always) get {
            (childArea + 16 * (slotCapacity + 1)).assumingMemoryBound(to: UnsafeMutableRawPointer.self)
        }
    }

    @inline(__always) func childBlock(at i: Int) -> OrderedIndexBlock {
        OrderedIndexBlock(childBlocks[i])
    }

    /// The entries under children `0..<index` of a branch.
    @inline(__always) func entries(before index: Int) -> Int {
        let counts = childCounts
        var total = 0
        for i in 0..<index { total &+= counts[i] }
        return total
    }

    // MARK: - Ids

    /// Entry `i`'s id.
    @inline(__always) func id(at i: Int) -> Int64 {
        Self.id(in: UnsafeRawPointer(idColumn), at: i, narrow: narrowIDs)
    }

    /// Id `i` of an ids column of 4-byte (`narrow`) or 8-byte ids.
    @inlinable @inline(__always) static func id(in column: UnsafeRawPointer, at i: Int, narrow: Bool) -> Int64 {
        narrow
            ? Int64(column.load(fromByteOffset: 4 * i, as: UInt32.self))
            : column.load(fromByteOffset: 8 * i, as: Int64.self)
    }

    /// Sets entry `i`'s id.
    ///
    /// - Precondition: A narrow block takes only ids that ``fitsNarrowID(_:)`` (programmer
    ///   error: the index widens itself before such an id arrives).
    @inline(__always) func setID(_ id: Int64, at i: Int) {
        let column = idColumn
        if narrowIDs {
            precondition(Self.fitsNarrowID(id), "OrderedIndex: a wide id in a narrow block")
            column.storeBytes(of: UInt32(truncatingIfNeeded: id), toByteOffset: 4 * i, as: UInt32.self)
        } else {
            column.storeBytes(of: id, toByteOffset: 8 * i, as: Int64.self)
        }
    }

    /// Moves ids `from..<from + count` to start at slot `to` (the ranges may overlap).
    @inline(__always) func moveIDs(from: Int, to: Int, count: Int) {
        Self.move(in: idColumn, width: idWidth, from: from, to: to, count: count)
    }

    /// Copies the ids of `source`'s entries `range` to slots from `start` on.
    func copyIDs(from source: OrderedIndexBlock, _ range: Range<Int>, to start: Int) {
        guard source.narrowIDs != narrowIDs else {
            let width = idWidth
            (idColumn + width * start).copyMemory(
                from: source.idColumn + width * range.lowerBound, byteCount: width * range.count)
            return
        }
        for (j, i) in range.enumerated() { setID(source.id(at: i), at: start + j) }
    }

    // MARK: - Entries

    @inline(__always) static func textSpan(_ span: UInt64) -> (offset: Int, length: Int) {
        (Int(span >> 32), Int(span & 0xFFFF_FFFF))
    }

    /// Entry `i`'s text bytes (empty for other kinds), valid until the node next changes.
    @inline(__always) func text(at i: Int) -> UnsafeRawBufferPointer {
        guard kinds[i] == OrderedIndexTag.text, let store = textStore else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        let narrow = narrowSpans
        let (offset, length) = Self.textSpan(Self.span(in: store, at: i, narrow: narrow))
        return UnsafeRawBufferPointer(start: store + Self.columnSize(slotCapacity, narrow: narrow) + offset, count: length)
    }

    /// Whether entries `i` and `j` are both text and share one span of the arena.
    @inline(__always) func sharesText(_ i: Int, _ j: Int) -> Bool {
        kinds[i] == OrderedIndexTag.text && kinds[j] == OrderedIndexTag.text && span(at: i) == span(at: j)
    }

    /// Whether entry `i` is text with the same bytes as `probe`'s text (`probe` is text).
    @inline(__always) func textEquals(at i: Int, _ probe: OrderedIndexProbe) -> Bool {
        guard kinds[i] == OrderedIndexTag.text, payloads[i] == probe.payload else { return false }
        let text = text(at: i)
        return text.count == probe.text.count && OrderedIndexOrder.compareBytes(text, probe.text) == 0
    }

    /// The arena bytes that only entries in `range` use: each text span counted once, and not
    /// at all when an entry outside `range` shares it. Entries sharing a span are adjacent
    /// (equal texts sort together), so only the entries just outside `range` are looked at.
    func textBytesOnlyIn(_ range: Range<Int>) -> Int {
        var bytes = 0
        for i in range where kinds[i] == OrderedIndexTag.text {
            if i > range.lowerBound && sharesText(i - 1, i) { continue }  // counted with the one before
            if i == range.lowerBound && i > 0 && sharesText(i - 1, i) { continue }  // kept by entry i - 1
            var last = i
            while last + 1 < range.upperBound && sharesText(last, last + 1) { last += 1 }
            if last + 1 == range.upperBound && last + 1 < count && sharesText(last, last + 1) { continue }
            bytes += Self.textSpan(span(at: i)).length
        }
        return bytes
    }

    /// The arena bytes the entries use: each shared span once.
    func liveTextBytes() -> Int {
        textStore == nil ? 0 : textBytesOnlyIn(0..<count)
    }

    /// Entry `i` as a probe, valid until the node next changes.
    @inline(__always) func probe(at i: Int) -> OrderedIndexProbe {
        OrderedIndexProbe(kind: kinds[i], payload: payloads[i], id: id(at: i), text: text(at: i))
    }

    /// Compares entry `i`'s value with `probe`'s value.
    @inline(__always) func compareValue(at i: Int, to probe: OrderedIndexProbe) -> Int {
        if let order = OrderedIndexOrder.compareUnlessBothText(kinds[i], payloads[i], probe.kind, probe.payload) {
            return order
        }
        return OrderedIndexOrder.compareBytes(text(at: i), probe.text)
    }

    /// Compares entry `i` with `probe`: value, then id.
    @inline(__always) func compare(at i: Int, to probe: OrderedIndexProbe) -> Int {
        let order = compareValue(at: i, to: probe)
        return order != 0 ? order : OrderedIndexOrder.compareIntegers(id(at: i), probe.id)
    }

    /// Compares entry `i` with entry `j` of `other`: value, then id.
    func compare(at i: Int, with other: OrderedIndexBlock, at j: Int) -> Int {
        compare(at: i, to: other.probe(at: j))
    }

    /// The number of entries before `probe` (`inclusive`: at or before it), by binary search.
    func countBefore(_ probe: OrderedIndexProbe, inclusive: Bool) -> Int {
        var low = 0
        var high = count
        let limit = inclusive ? 0 : -1
        while low < high {
            let middle = (low + high) >> 1
            if compare(at: middle, to: probe) <= limit {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// Entry `i` as an owned key.
    func key(at i: Int) -> OrderedIndexKey {
        OrderedIndexKey(probe(at: i))
    }

    /// Entry `i`'s value.
    func value(at i: Int) -> IndexValue {
        let payload = payloads[i]
        switch kinds[i] {
        case OrderedIndexTag.integer:
            return .integer(Int64(bitPattern: payload))
        case OrderedIndexTag.double:
            return .double(Double(bitPattern: payload))
        case OrderedIndexTag.text:
            return .text(String(decoding: text(at: i).assumingMemoryBound(to: UInt8.self), as: UTF8.self))
        default:
            return .null
        }
    }

    func entry(at i: Int) -> IndexEntry {
        IndexEntry(value: value(at: i), id: id(at: i))
    }
}
