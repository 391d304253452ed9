// Helpers for the format tests: a seeded generator, bit flips, truncations and corruption checks.

import StockpotCore
import Testing

@testable import StockpotStorage
import StockpotTestSupport

enum FormatTestBytes {
    /// `bytes` with bit `bit` (0 = lowest bit of byte 0) inverted.
    static func flipping(_ bytes: [UInt8], bit: Int) -> [UInt8] {
        var copy = bytes
        copy[bit / 8] ^= UInt8(1) << UInt8(bit % 8)
        return copy
    }

    /// Appends one record of `key` and `value` (the stored bytes) and returns its header.
    @discardableResult
    static func appendRecord(
        _ header: RecordHeader, key: [UInt8], value: [UInt8], to output: inout [UInt8]
    ) -> RecordHeader {
        key.withUnsafeBytes { key in
            value.withUnsafeBytes { value in
                RecordCodec.append(header, key: key, storedValue: value, to: &output)
            }
        }
    }

    /// The checksum's 8 little-endian bytes.
    static func littleEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// XXH3-64 of `bytes`, as 8 little-endian bytes.
    static func checksumBytes(_ bytes: [UInt8]) -> [UInt8] {
        littleEndian(Checksum.xxh3(bytes))
    }
}

/// Runs `decode` on `bytes` and returns the corruption error it throws, recording an issue when
/// it returns normally or throws anything else.
@discardableResult
func expectCorruption<T>(
    _ bytes: [UInt8], _ context: @autoclosure () -> String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ decode: (UnsafeRawBufferPointer) throws(StorageError) -> T
) -> StorageError? {
    let result: Result<T, StorageError> = bytes.withUnsafeBytes { buffer in
        do throws(StorageError) { return .success(try decode(buffer)) } catch { return .failure(error) }
    }
    switch result {
    case .success(let value):
        Issue.record("decoded \(value) from corrupt bytes: \(context())", sourceLocation: sourceLocation)
        return nil
    case .failure(let error):
        #expect(error.code == .corruption, "\(context())", sourceLocation: sourceLocation)
        #expect(error.file != nil && error.offset != nil, "\(context())", sourceLocation: sourceLocation)
        return error
    }
}

/// Runs `decode` on `bytes`, recording an issue if it throws.
func decodeExpectingSuccess<T>(
    _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation,
    _ decode: (UnsafeRawBufferPointer) throws(StorageError) -> T
) throws -> T {
    let result: Result<T, StorageError> = bytes.withUnsafeBytes { buffer in
        do throws(StorageError) { return .success(try decode(buffer)) } catch { return .failure(error) }
    }
    return try result.get()
}
