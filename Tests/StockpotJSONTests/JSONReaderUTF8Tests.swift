// Pins that JSONReader rejects ill-formed UTF-8 (overlong, surrogates, out of range, truncated,
// stray continuation bytes) with invalidUTF8, inside strings and outside them.
import Testing
import StockpotJSON

@Suite struct JSONReaderUTF8Tests {
    /// Ill-formed sequences, each placed between ASCII so the context is well formed.
    static let illFormed: [[UInt8]] = [
        [0xC0, 0xAF],  // overlong "/"
        [0xC1, 0xBF],  // overlong 2-byte
        [0xE0, 0x80, 0xAF],  // overlong 3-byte
        [0xF0, 0x80, 0x80, 0xAF],  // overlong 4-byte
        [0xED, 0xA0, 0x80],  // U+D800 encoded directly
        [0xED, 0xBF, 0xBF],  // U+DFFF encoded directly
        [0xF4, 0x90, 0x80, 0x80],  // U+110000
        [0xF5, 0x80, 0x80, 0x80], [0xF8], [0xFE], [0xFF],
        [0xC3],  // truncated 2-byte
        [0xE2, 0x82],  // truncated 3-byte
        [0xF0, 0x9F, 0x98],  // truncated 4-byte
        [0x80], [0xBF],  // stray continuation bytes
        [0xC3, 0xA9, 0xA9],  // valid "é" followed by a stray continuation byte
        [0xE2, 0x28, 0xA1],  // lead byte followed by a non-continuation
    ]

    @Test(arguments: illFormed)
    func illFormedUTF8InsideAStringIsRejected(sequence: [UInt8]) {
        let input = [0x22, 0x61] + sequence + [0x62, 0x22]
        #expect(parseError(input)?.code == .invalidUTF8, "\(describe(input))")
    }

    @Test(arguments: illFormed)
    func illFormedUTF8InsideAKeyIsRejected(sequence: [UInt8]) {
        let input = [0x7B, 0x22] + sequence + [0x22, 0x3A, 0x31, 0x7D]
        #expect(parseError(input)?.code == .invalidUTF8, "\(describe(input))")
    }

    // Outside strings; the "é" + stray byte case is left out because its first problem is the
    // well-formed but unexpected "é".
    @Test(arguments: illFormed.filter { $0 != [0xC3, 0xA9, 0xA9] })
    func illFormedUTF8OutsideStringsIsRejected(sequence: [UInt8]) {
        for input in [sequence, [0x20] + sequence, [0x5B] + sequence + [0x5D]] {
            #expect(parseError(input)?.code == .invalidUTF8, "\(describe(input))")
        }
    }

    // After a complete value both codes describe the input (it is trailing garbage and it is
    // ill-formed), so either is accepted; where it is reported is not open.
    @Test(arguments: illFormed)
    func illFormedUTF8AfterTheValueIsRejectedAtItsFirstByte(sequence: [UInt8]) throws {
        let input = [0x31, 0x20] + sequence
        let error = try #require(parseError(input), "accepted \(describe(input))")
        #expect([JSONError.Code.invalidUTF8, .trailingGarbage].contains(error.code), "\(error)")
        #expect(error.offset == 2, "\(error)")
    }

    @Test func truncatedSequenceAtEndOfStringIsRejected() {
        // The string's closing quote must not be swallowed as a continuation byte.
        for input: [UInt8] in [[0x22, 0xC3, 0x22], [0x22, 0xE2, 0x82, 0x22], [0x22, 0xF0, 0x9F, 0x22]] {
            #expect(parseError(input)?.code == .invalidUTF8, "\(describe(input))")
        }
    }

    @Test func wellFormedBoundarySequencesAreAccepted() throws {
        let scalars: [Unicode.Scalar] = [
            "\u{80}", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}",
            "\u{FFFF}", "\u{10000}", "\u{10FFFF}",
        ]
        for scalar in scalars {
            let text = "\"" + String(scalar) + "\""
            #expect(identical(parsed(text), .string(String(scalar))), "U+\(String(scalar.value, radix: 16))")
        }
    }
}
