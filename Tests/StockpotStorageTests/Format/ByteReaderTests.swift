// The little-endian writers and the bounds-checked readers every decoder is built on.

import StockpotCore
import Testing

@testable import StockpotStorage

@Suite struct ByteReaderTests {
    @Test func writersAreLittleEndian() {
        var bytes: [UInt8] = []
        bytes.appendUInt8(0xAA)
        bytes.appendUInt16LE(0x0102)
        bytes.appendUInt32LE(0x0304_0506)
        bytes.appendUInt64LE(0x0708_090A_0B0C_0D0E)
        #expect(bytes == [0xAA, 0x02, 0x01, 0x06, 0x05, 0x04, 0x03, 0x0E, 0x0D, 0x0C, 0x0B, 0x0A, 0x09, 0x08, 0x07])
    }

    @Test func readersAdvanceAndGettersDoNot() {
        let bytes: [UInt8] = [0xAA, 0x02, 0x01, 0x06, 0x05, 0x04, 0x03, 0x0E, 0x0D, 0x0C, 0x0B, 0x0A, 0x09, 0x08, 0x07, 0xFF]
        bytes.withUnsafeBytes { buffer in
            #expect(buffer.getUInt32LE(at: 3) == 0x0304_0506)
            #expect(buffer.getUInt16LE(at: 1) == 0x0102)
            var reader = ByteReader(buffer)
            #expect(reader.readUInt8() == 0xAA)
            #expect(reader.readUInt16LE() == 0x0102)
            #expect(reader.readUInt32LE() == 0x0304_0506)
            #expect(reader.readUInt64LE() == 0x0708_090A_0B0C_0D0E)
            #expect(reader.offset == 15 && reader.remaining == 1)
            #expect(reader.readUInt16LE() == nil)
            #expect(reader.offset == 15)
            #expect(reader.readBytes(1).map(Array.init) == [0xFF])
            #expect(reader.isAtEnd)
        }
    }

    @Test func readsOutsideTheBufferReturnNil() {
        let bytes: [UInt8] = [1, 2, 3, 4, 5, 6, 7]
        bytes.withUnsafeBytes { buffer in
            for offset in [-1, 4, 7, Int.max, Int.min] {
                #expect(buffer.getUInt32LE(at: offset) == nil, "offset \(offset)")
            }
            #expect(buffer.getUInt64LE(at: 0) == nil)
            #expect(buffer.getBytes(at: 3, count: 5) == nil)
            #expect(buffer.getBytes(at: 3, count: -1) == nil)
            #expect(buffer.getBytes(at: 7, count: 0)?.count == 0)
            var reader = ByteReader(buffer, offset: 99)
            #expect(reader.readUInt8() == nil && reader.remaining == 0)
            reader.offset = -3
            #expect(reader.readUInt8() == nil && reader.remaining == 0)
            reader.offset = 5
            #expect(reader.readBytes(Int.max) == nil)
        }
    }

    @Test func checksumIsXXH3WithSeedZero() {
        // The xxHash specification's value for empty input, and a self-consistency check.
        #expect(Checksum.xxh3([]) == 0x2D06_8005_38D3_94C2)
        let bytes = Array("stockpot".utf8)
        #expect(bytes.withUnsafeBytes { Checksum.xxh3($0) } == Checksum.xxh3(bytes))
        #expect(Checksum.xxh3(bytes) != Checksum.xxh3(Array("stockpou".utf8)))
    }
}
