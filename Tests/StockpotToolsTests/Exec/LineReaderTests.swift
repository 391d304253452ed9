// The exec line reader in process, over a pipe: lines split at every buffer size, a last line
// without a newline, a line at the limit kept and one past it reported by length only.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import StockpotTools

@Suite struct LineReaderTests {
    /// Writes `bytes` into a pipe, closes it, and reads every line back.
    private func lines(of bytes: [UInt8], limit: Int, bufferBytes: Int) throws -> [LineReader.Line] {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        defer { close(descriptors[0]) }
        let written = bytes.withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) }
        close(descriptors[1])
        try #require(written == bytes.count)
        var reader = LineReader(fileDescriptor: descriptors[0], maxLineBytes: limit, bufferBytes: bufferBytes)
        var result: [LineReader.Line] = []
        while let line = try reader.next() { result.append(line) }
        return result
    }

    @Test(arguments: [1, 2, 3, 7, 64, 1 << 16])
    func splitsLinesAtEveryBufferSize(bufferBytes: Int) throws {
        let input = Array("ab\n\n0123456789\nxyz\r\n012345678\n01234567890123456789\ntail".utf8)
        let expected: [LineReader.Line] = [
            .line(Array("ab".utf8)), .line([]), .line(Array("0123456789".utf8)), .line(Array("xyz\r".utf8)),
            .line(Array("012345678".utf8)), .tooLong(byteCount: 20), .line(Array("tail".utf8)),
        ]
        #expect(try lines(of: input, limit: 10, bufferBytes: bufferBytes) == expected)
    }

    @Test func overlongLastLineWithoutNewlineIsReported() throws {
        #expect(try lines(of: Array("ok\n0123456789ABC".utf8), limit: 10, bufferBytes: 4) == [
            .line(Array("ok".utf8)), .tooLong(byteCount: 13),
        ])
    }

    @Test func emptyInputHasNoLines() throws {
        #expect(try lines(of: [], limit: 10, bufferBytes: 4) == [])
        #expect(try lines(of: [UInt8(ascii: "\n")], limit: 10, bufferBytes: 4) == [.line([])])
    }
}
