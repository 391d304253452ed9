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
        #expect(
            try lines(of: Array("ok\n0123456789ABC".utf8), limit: 10, bufferBytes: 4) == [
                .line(Array("ok".utf8)), .tooLong(byteCount: 13),
            ])
    }

    @Test func emptyInputHasNoLines() throws {
        #expect(try lines(of: [], limit: 10, bufferBytes: 4) == [])
        #expect(try lines(of: [UInt8(ascii: "\n")], limit: 10, bufferBytes: 4) == [.line([])])
    }

    /// A long line grows its buffer by doubling; the line handed out holds about its own bytes,
    /// not the doubled buffer (which a request would otherwise hold while it runs).
    @Test(arguments: [(1 << 20) + 10, 3 << 19])
    func aLongLineIsHandedOutAtItsSize(length: Int) throws {
        var template = Array("/tmp/stockpot-line-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        try #require(descriptor >= 0)
        defer {
            close(descriptor)
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        }
        let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: length) + [UInt8(ascii: "\n")]
        try #require(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
        try #require(lseek(descriptor, 0, SEEK_SET) == 0)
        var reader = LineReader(fileDescriptor: descriptor, maxLineBytes: 64 << 20)
        guard case .line(let line) = try reader.next() else {
            Issue.record("no line")
            return
        }
        #expect(line.count == length)
        #expect(line.capacity <= length + length / 8, "capacity \(line.capacity) for \(length) bytes")
    }
}
