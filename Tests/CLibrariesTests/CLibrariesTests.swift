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

    #if arch(x86_64)
        /// The checksum of every record goes through the runtime-dispatched entry point
        /// (`Checksum.xxh3`): it must give the portable function's hash at every length, across
        /// the short (up to 16), medium (up to 240) and long (stripes of 64 bytes) code paths.
        @Test func dispatchedXXH3IsThePortableXXH3() {
            var random = SystemRandomNumberGenerator()
            let bytes = (0..<4_100).map { _ in UInt8.random(in: 0...255, using: &random) }
            bytes.withUnsafeBytes { all in
                for length in 0...all.count {
                    for start in [0, 3] where start + length <= all.count {
                        let input = UnsafeRawBufferPointer(rebasing: all[start..<start + length])
                        let portable = XXH3_64bits(input.baseAddress, input.count)
                        let dispatched = XXH3_64bits_dispatch(input.baseAddress, input.count)
                        #expect(dispatched == portable, "length \(length) at offset \(start)")
                    }
                }
            }
        }
    #endif

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
