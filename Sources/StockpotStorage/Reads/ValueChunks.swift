// Values laid back to back in a few shared buffers and handed out as slices of them: one
// allocation for a query page's rows instead of one per row (a 1 KB value is past glibc's
// per-thread cache, so each of its allocations and frees walks the allocator's bins).

/// Builds the values of one batch read into shared buffers of about ``chunkCapacity`` bytes.
///
/// A value is written at the end of the open buffer; ``finishValue(at:from:)`` records its
/// range; the slices are made when the buffer is closed (a slice taken earlier would make the
/// next append copy the buffer). A value longer than ``chunkCapacity`` gets a buffer of its
/// own size. Buffers stay small enough that glibc never serves them with `mmap`.
struct ValueChunks {
    /// The bytes a buffer is made for: a page of ten ~1 KB documents fits in one.
    static let chunkCapacity = 16 * 1024

    /// The open buffer; values are written onto its end (after ``reserve(_:)``).
    var buffer: [UInt8] = []
    /// The values in `buffer`, by position in the batch.
    private var pending: [(position: Int, range: Range<Int>)] = []
    /// The batch's values, filled as buffers close.
    private var slices: [ArraySlice<UInt8>?]

    /// Room for `count` values, all `nil` until finished.
    init(count: Int) {
        slices = Array(repeating: nil, count: count)
    }

    /// Makes sure the next `length` bytes fit in the open buffer, closing it and opening one
    /// big enough when they do not.
    mutating func reserve(_ length: Int) {
        guard buffer.capacity - buffer.count < length else { return }
        close()
        buffer = []
        buffer.reserveCapacity(max(Self.chunkCapacity, length))
    }

    /// Appends `bytes` to the open buffer (after ``reserve(_:)``).
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    /// Zero bytes copied onto a buffer to make room that is then decoded into: appending a
    /// copy of them is a `memcpy`, appending `repeatElement(0, count:)` a byte loop, and a
    /// temporary buffer of a kilobyte or more comes from `malloc`.
    private static let zeros = [UInt8](repeating: 0, count: 16 * 1024)

    /// Appends `count` zero bytes to `buffer`.
    static func appendZeros(_ count: Int, to buffer: inout [UInt8]) {
        var left = count
        while left > 0 {
            let run = min(left, zeros.count)
            zeros.withUnsafeBytes { buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[..<run])) }
            left -= run
        }
    }

    /// Records that the value at `position` is the open buffer's bytes from `start` on.
    mutating func finishValue(at position: Int, from start: Int) {
        pending.append((position, start..<buffer.count))
    }

    /// Makes `value`, an array already made (a value from the decoded value cache), the value
    /// at `position`, shared rather than copied into a buffer.
    mutating func share(_ value: [UInt8], at position: Int) {
        slices[position] = value[...]
    }

    /// The values, each a slice of the buffer it was written to (`nil` where none was).
    mutating func finish() -> [ArraySlice<UInt8>?] {
        close()
        buffer = []
        return slices
    }

    private mutating func close() {
        for value in pending { slices[value.position] = buffer[value.range] }
        pending.removeAll(keepingCapacity: true)
    }
}
