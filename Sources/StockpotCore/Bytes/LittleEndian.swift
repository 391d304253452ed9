// Little-endian integer writers (`append*LE`) and bounds-checked readers (`get*LE(at:)`) over
// raw bytes; every format in docs/format is little-endian.

extension Array where Element == UInt8 {
    /// Appends `value` as one byte.
    @inlinable package mutating func appendUInt8(_ value: UInt8) {
        append(value)
    }

    /// Appends `value` as 2 little-endian bytes.
    @inlinable package mutating func appendUInt16LE(_ value: UInt16) {
        for shift in stride(from: 0, to: 16, by: 8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    /// Appends `value` as 4 little-endian bytes.
    @inlinable package mutating func appendUInt32LE(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    /// Appends `value` as 8 little-endian bytes.
    @inlinable package mutating func appendUInt64LE(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    /// Appends the bytes of `buffer`.
    @inlinable package mutating func appendBytes(_ buffer: UnsafeRawBufferPointer) {
        append(contentsOf: buffer)
    }
}

extension UnsafeRawBufferPointer {
    /// Whether `size` bytes starting at `offset` lie inside the buffer.
    @inline(__always)
    @inlinable package func contains(offset: Int, size: Int) -> Bool {
        offset >= 0 && size >= 0 && offset <= count && size <= count - offset
    }

    /// The byte at `offset`, or nil when it is outside the buffer. Does not advance anything.
    @inlinable package func getUInt8(at offset: Int) -> UInt8? {
        guard contains(offset: offset, size: 1) else { return nil }
        return self[offset]
    }

    /// The little-endian u16 at `offset`, or nil when it does not fit in the buffer.
    @inlinable package func getUInt16LE(at offset: Int) -> UInt16? {
        guard contains(offset: offset, size: 2) else { return nil }
        return UInt16(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    /// The little-endian u32 at `offset`, or nil when it does not fit in the buffer.
    @inlinable package func getUInt32LE(at offset: Int) -> UInt32? {
        guard contains(offset: offset, size: 4) else { return nil }
        return UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The little-endian u64 at `offset`, or nil when it does not fit in the buffer.
    @inlinable package func getUInt64LE(at offset: Int) -> UInt64? {
        guard contains(offset: offset, size: 8) else { return nil }
        return UInt64(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The `count` bytes at `offset` (a view, not a copy), or nil when they do not fit.
    @inlinable package func getBytes(at offset: Int, count size: Int) -> UnsafeRawBufferPointer? {
        guard contains(offset: offset, size: size) else { return nil }
        return UnsafeRawBufferPointer(rebasing: self[offset..<(offset + size)])
    }
}
