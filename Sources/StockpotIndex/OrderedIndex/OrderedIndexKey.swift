// The comparable form of an ordered-index entry (kind tag, 64-bit payload, UTF-8 text, id) and
// the total order the index keeps: null < numbers (by exact numeric value) < text (by bytes).
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import StockpotJSON

/// Value kind tags, used in nodes and in the snapshot format. Values are never reused.
enum OrderedIndexTag {
    static let null: UInt8 = 0
    static let integer: UInt8 = 1
    static let double: UInt8 = 2
    static let text: UInt8 = 3
    /// Snapshot bytes only (version 2): the value of the entry before; never in a node.
    static let repeatValue: UInt8 = 4
}

/// An owned entry key: a value in comparable form plus an id (a split's separator).
///
/// `payload` is an integer's or a double's bit pattern (kept exactly, so `-0.0` stays `-0.0`),
/// 0 for null, and for text its ``OrderedIndexOrder/textPrefix(_:)``; text keeps its UTF-8
/// bytes in `text`.
struct OrderedIndexKey: Sendable {
    var kind: UInt8
    var payload: UInt64
    var text: [UInt8]
    var id: Int64

    /// An owned copy of `probe`.
    init(_ probe: OrderedIndexProbe) {
        kind = probe.kind
        payload = probe.payload
        text = Array(probe.text)
        id = probe.id
    }

    /// Calls `body` with a probe for this key, valid inside `body`.
    func withProbe<R>(_ body: (OrderedIndexProbe) throws -> R) rethrows -> R {
        try text.withUnsafeBytes { try body(OrderedIndexProbe(kind: kind, payload: payload, id: id, text: $0)) }
    }
}

/// A borrowed entry key for searches and inserts: kind, payload (as in ``OrderedIndexKey``), id
/// and the text bytes, valid only inside the `with...` call that made it. Trivial to copy.
struct OrderedIndexProbe {
    var kind: UInt8
    var payload: UInt64
    var id: Int64
    var text: UnsafeRawBufferPointer

    /// Calls `body` with a probe for `(value, id)`; text is read in place, not copied.
    static func with<R>(_ value: IndexValue, id: Int64, _ body: (OrderedIndexProbe) throws -> R) rethrows -> R {
        let none = UnsafeRawBufferPointer(start: nil, count: 0)
        switch value {
        case .null:
            return try body(OrderedIndexProbe(kind: OrderedIndexTag.null, payload: 0, id: id, text: none))
        case .integer(let integer):
            return try body(OrderedIndexProbe(kind: OrderedIndexTag.integer, payload: UInt64(bitPattern: integer), id: id, text: none))
        case .double(let double):
            return try body(OrderedIndexProbe(kind: OrderedIndexTag.double, payload: double.bitPattern, id: id, text: none))
        case .text(let string):
            var string = string
            return try string.withUTF8 { utf8 in
                let bytes = UnsafeRawBufferPointer(utf8)
                let prefix = OrderedIndexOrder.textPrefix(bytes)
                return try body(OrderedIndexProbe(kind: OrderedIndexTag.text, payload: prefix, id: id, text: bytes))
            }
        }
    }
}

/// The index's total order on values and entries.
///
/// It is `IndexValue`'s order (null < numbers < text; an integer and a double compare by exact
/// numeric value, `-0.0 == 0.0`; text by unsigned UTF-8 bytes, a prefix first) made total for
/// NaN, which documents never produce: NaN equals NaN and sorts below every other number.
/// Entries with equal values are ordered by id.
enum OrderedIndexOrder {
    /// null 0, numbers 1, text 2.
    @inline(__always)
    static func classRank(_ kind: UInt8) -> Int {
        kind == OrderedIndexTag.null ? 0 : (kind == OrderedIndexTag.text ? 2 : 1)
    }

    /// Compares two values given as (kind, payload), negative, zero or positive; `nil` when both
    /// are text with equal prefixes, whose bytes the caller compares with ``compareBytes(_:_:)``.
    @inline(__always)
    static func compareUnlessBothText(_ leftKind: UInt8, _ left: UInt64, _ rightKind: UInt8, _ right: UInt64) -> Int? {
        if leftKind == rightKind {
            switch leftKind {
            case OrderedIndexTag.integer:
                return compareIntegers(Int64(bitPattern: left), Int64(bitPattern: right))
            case OrderedIndexTag.double:
                return compareDoubles(Double(bitPattern: left), Double(bitPattern: right))
            case OrderedIndexTag.text:
                return left == right ? nil : (left < right ? -1 : 1)
            default:
                return 0
            }
        }
        let leftRank = classRank(leftKind)
        let rightRank = classRank(rightKind)
        if leftRank != rightRank { return leftRank < rightRank ? -1 : 1 }
        if leftKind == OrderedIndexTag.integer {
            return compare(Int64(bitPattern: left), Double(bitPattern: right))
        }
        return -compare(Int64(bitPattern: right), Double(bitPattern: left))
    }

    @inline(__always)
    static func compareIntegers(_ a: Int64, _ b: Int64) -> Int {
        a < b ? -1 : (a == b ? 0 : 1)
    }

    /// Doubles by value, `-0.0 == 0.0`, NaN equal to NaN and below every other double.
    @inline(__always)
    static func compareDoubles(_ a: Double, _ b: Double) -> Int {
        if a < b { return -1 }
        if a > b { return 1 }
        if a == b { return 0 }
        if a.isNaN { return b.isNaN ? 0 : -1 }
        return 1
    }

    /// Compares an integer with a double exactly (no rounding of the integer); NaN is below
    /// every integer.
    static func compare(_ integer: Int64, _ double: Double) -> Int {
        if double.isNaN { return 1 }
        // 2^63 is exactly representable; every integer is below it and at or above -2^63.
        if double >= 9_223_372_036_854_775_808.0 { return -1 }
        if double < -9_223_372_036_854_775_808.0 { return 1 }
        let floor = double.rounded(.down)
        let whole = Int64(floor)
        if integer != whole { return integer < whole ? -1 : 1 }
        return double > floor ? -1 : 0
    }

    /// A text's first 8 bytes, big-endian, zero-padded: texts whose prefixes differ sort as the
    /// prefixes do, so most comparisons never read the bytes.
    @inline(__always)
    static func textPrefix(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        if bytes.count >= 8 { return UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)) }
        var prefix: UInt64 = 0
        for i in 0..<bytes.count { prefix |= UInt64(bytes[i]) << (56 - 8 * i) }
        return prefix
    }

    /// Unsigned byte order, a prefix before the longer sequences it starts.
    @inline(__always)
    static func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        if common > 0 {
            let order = memcmp(a.baseAddress!, b.baseAddress!, common)
            if order != 0 { return order < 0 ? -1 : 1 }
        }
        return a.count < b.count ? -1 : (a.count == b.count ? 0 : 1)
    }

    /// Whether `a` sorts strictly before `b` (value, then id): the snapshot reader's order check.
    @inline(__always)
    static func ascending(_ a: OrderedIndexProbe, _ b: OrderedIndexProbe) -> Bool {
        let order = compareUnlessBothText(a.kind, a.payload, b.kind, b.payload) ?? compareBytes(a.text, b.text)
        return order < 0 || (order == 0 && a.id < b.id)
    }

    /// Compares two probes, value then id.
    static func compare(_ a: OrderedIndexProbe, _ b: OrderedIndexProbe) -> Int {
        let order = compareUnlessBothText(a.kind, a.payload, b.kind, b.payload) ?? compareBytes(a.text, b.text)
        return order != 0 ? order : compareIntegers(a.id, b.id)
    }
}
