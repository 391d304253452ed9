// A bounds-checked cursor over ordered-index snapshot bytes (format in OrderedIndex+Snapshot.swift):
// the header's bytes and LEB128 varints, and the UTF-8 checks the entry loop uses; every failure throws.

/// Reads snapshot fields front to back; `read*` advances. Never reads past the buffer.
struct OrderedIndexSnapshotReader {
    let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var remaining: Int { bytes.count - offset }

    private func truncated(_ what: String) -> IndexSnapshotError {
        IndexSnapshotError(.truncated, "the bytes end inside \(what)", offset: offset)
    }

    @inline(__always)
    mutating func readByte(_ what: @autoclosure () -> String) throws(IndexSnapshotError) -> UInt8 {
        guard offset < bytes.count else { throw truncated(what()) }
        defer { offset += 1 }
        return bytes.load(fromByteOffset: offset, as: UInt8.self)
    }

    /// An unsigned LEB128 varint: 7 bits a byte, low bits first, at most 10 bytes.
    @inline(__always)
    mutating func readUnsignedVarint(_ what: @autoclosure () -> String) throws(IndexSnapshotError) -> UInt64 {
        // Most varints here (id deltas, short lengths) are one byte.
        if offset < bytes.count {
            let byte = bytes.load(fromByteOffset: offset, as: UInt8.self)
            if byte < 0x80 {
                offset += 1
                return UInt64(byte)
            }
        }
        return try readLongVarint(what())
    }

    private mutating func readLongVarint(_ what: String) throws(IndexSnapshotError) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte(what)
            if shift == 63 && byte > 1 {
                throw IndexSnapshotError(.invalidVarint, "\(what) overflows 64 bits", offset: start)
            }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    /// Whether every byte is below 0x80 (ASCII is well-formed UTF-8): eight bytes a step.
    @inline(__always)
    static func isASCII(_ text: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        var high: UInt64 = 0
        while i + 8 <= text.count {
            high |= text.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < text.count {
            high |= UInt64(text.load(fromByteOffset: i, as: UInt8.self))
            i += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// The offset of the first byte that starts no well-formed UTF-8 sequence (Unicode table
    /// 3-7: no overlongs, surrogates or values past U+10FFFF), or `nil`.
    static func firstInvalidUTF8(_ text: UnsafeRawBufferPointer) -> Int? {
        var i = 0
        let end = text.count
        while i < end {
            let lead = text[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            let length: Int
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            guard end - i >= length else { return i }
            let second = text[i + 1]
            guard second >= low && second <= high else { return i }
            for j in 2..<length where text[i + j] & 0xC0 != 0x80 {
                return i
            }
            i += length
        }
        return nil
    }
}
