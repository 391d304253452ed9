// Pins the dictionary file codec to docs/format/dictionary.md's worked example.

import Testing

@testable import StockpotStorage
import StockpotTestSupport

@Suite struct DictionaryGoldenTests {
    static let content: [UInt8] = [0x7B, 0x22, 0x61, 0x22, 0x3A]  // {"a":

    @Test func workedExampleHasTheDocumentedBytes() throws {
        let layout: [UInt8] =
            [
                0x53, 0x54, 0x4B, 0x50, 0x44, 0x43, 0x54, 0x00,  // "STKPDCT\0"
                0x01, 0x00, 0x00, 0x00,  // version 1
                0x01, 0x00,  // dictionary id 1
                0x00, 0x00,  // flags
                0x05, 0x00, 0x00, 0x00,  // key space 5
                0x05, 0x00, 0x00, 0x00,  // length 5
            ] + FormatTestBytes.checksumBytes(Self.content)
        let encoded = DictionaryFormat.encode(id: 1, keySpace: 5, content: Self.content)
        #expect(encoded == layout + FormatTestBytes.checksumBytes(layout) + Self.content)
        let decoded = try decodeExpectingSuccess(encoded) { bytes throws(StorageError) in
            try DictionaryFormat.decode(bytes, file: "000000000006.dict")
        }
        #expect(decoded.id == 1 && decoded.keySpace == 5 && decoded.content == Self.content)
    }

    @Test func fullSizeDictionaryRoundTrips() throws {
        var random = SeededRandom(seed: 0xD1C7)
        let content = random.bytes(DictionaryFormat.maximumContentLength)
        let encoded = DictionaryFormat.encode(id: 65_535, keySpace: 0xDEAD_BEEF, content: content)
        let decoded = try decodeExpectingSuccess(encoded) { bytes throws(StorageError) in
            try DictionaryFormat.decode(bytes, file: "d")
        }
        #expect(decoded.id == 65_535 && decoded.keySpace == 0xDEAD_BEEF && decoded.content == content)
    }
}
