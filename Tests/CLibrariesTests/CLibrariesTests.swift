// Pins that the system C libraries `make deps` installs are the ones the package links and that
// they behave as the layers above rely on (round trips and known values).

import CLZ4
import CSQLite
import CUTF8Proc
import CXXHash
import Testing

@Suite struct CLibrariesTests {
    @Test func lz4RoundTripsABlock() throws {
        let input = Array(repeating: Array("stockpot soup ".utf8), count: 64).flatMap { $0 }
        var compressed = [UInt8](repeating: 0, count: Int(LZ4_compressBound(Int32(input.count))))
        let compressedSize = input.withUnsafeBytes { src in
            compressed.withUnsafeMutableBytes { dst in
                LZ4_compress_default(
                    src.baseAddress!.assumingMemoryBound(to: CChar.self),
                    dst.baseAddress!.assumingMemoryBound(to: CChar.self),
                    Int32(input.count), Int32(dst.count))
            }
        }
        #expect(compressedSize > 0 && Int(compressedSize) < input.count / 4)
        var output = [UInt8](repeating: 0, count: input.count)
        let decodedSize = compressed.withUnsafeBytes { src in
            output.withUnsafeMutableBytes { dst in
                LZ4_decompress_safe(
                    src.baseAddress!.assumingMemoryBound(to: CChar.self),
                    dst.baseAddress!.assumingMemoryBound(to: CChar.self),
                    compressedSize, Int32(dst.count))
            }
        }
        #expect(Int(decodedSize) == input.count)
        #expect(output == input)
    }

    @Test func xxh3OfEmptyInputIsTheKnownConstant() {
        // XXH3_64bits of zero bytes with seed 0, from the xxHash specification's test vectors.
        #expect(XXH3_64bits(nil, 0) == 0x2D06_8005_38D3_94C2)
    }

    @Test func xxh3TellsInputsApart() {
        let a = Array("soup".utf8)
        let b = Array("soup!".utf8)
        #expect(XXH3_64bits(a, a.count) != XXH3_64bits(b, b.count))
    }

    @Test func utf8procFoldsCaseAndStripsMarks() throws {
        let input = Array("Élan".utf8)
        var folded: UnsafeMutablePointer<UInt8>? = nil
        let options = utf8proc_option_t(
            UTF8PROC_CASEFOLD.rawValue | UTF8PROC_STRIPMARK.rawValue | UTF8PROC_COMPOSE.rawValue)
        let length = utf8proc_map(input, input.count, &folded, options)
        let result = try #require(folded)
        defer { free(result) }
        #expect(length == 4)
        #expect(String(cString: result) == "elan")
    }

    @Test func sqliteHasFTS5() {
        #expect(sqlite3_compileoption_used("ENABLE_FTS5") == 1)
    }
}
