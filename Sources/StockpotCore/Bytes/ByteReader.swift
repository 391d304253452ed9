// A bounds-checked little-endian cursor over raw bytes: `read*` advances, returns nil past the end.
// Used by every decoder in Format/ (docs/format/*.md).

/// A forward cursor over a byte buffer that never reads outside it.
///
/// Each `read*` returns nil, and leaves `offset` unchanged, when the value does not fit in the
/// bytes that remain. The reader does not own its bytes: it is valid only while the buffer is.
package struct ByteReader {
    /// The bytes being read.
    package let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read; may be set anywhere (reads past the end return nil).
    package var offset: Int

    /// Creates a reader positioned at `offset` (0 by default).
    @inlinable package init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The number of bytes from `offset` to the end (0 when `offset` is past it).
    package var remaining: Int {
        offset >= 0 && offset <= bytes.count ? bytes.count - offset : 0
    }

    /// Whether `offset` is exactly at the end of the bytes.
    package var isAtEnd: Bool { offset == bytes.count }

    /// Reads one byte.
    @inlinable package mutating func readUInt8() -> UInt8? {
        guard let value = bytes.getUInt8(at: offset) else { return nil }
        offset += 1
        return value
    }

    /// Reads a little-endian u16.
    @inlinable package mutating func readUInt16LE() -> UInt16? {
        guard let value = bytes.getUInt16LE(at: offset) else { return nil }
        offset += 2
        return value
    }

    /// Reads a little-endian u32.
    @inlinable package mutating func readUInt32LE() -> UInt32? {
        guard let value = bytes.getUInt32LE(at: offset) else { return nil }
        offset += 4
        return value
    }

    /// Reads a little-endian u64.
    @inlinable package mutating func readUInt64LE() -> UInt64? {
        guard let value = bytes.getUInt64LE(at: offset) else { return nil }
        offset += 8
        return value
    }

    /// Reads `count` bytes as a view into the buffer (not a copy).
    @inlinable package mutating func readBytes(_ count: Int) -> UnsafeRawBufferPointer? {
        guard let value = bytes.getBytes(at: offset, count: count) else { return nil }
        offset += count
        return value
    }
}
