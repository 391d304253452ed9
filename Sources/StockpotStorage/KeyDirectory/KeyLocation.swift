// Where the newest record of a key lives: a segment, the record's offset and length in it, its
// sequence number and its record tag. The key directory maps each live key to one of these.

/// The location of a key's newest record, as the key directory stores it.
///
/// A plain value: thread-safe to copy and share.
package struct KeyLocation: Sendable, Equatable, Hashable {
    /// The segment file number.
    package var segment: UInt32
    /// The record's byte offset in the segment.
    package var offset: UInt32
    /// The record's length in bytes.
    package var length: UInt32
    /// The record's sequence number.
    package var sequence: UInt64
    /// The record tag: 1 for a put, 3 for a put-blob.
    package var kind: UInt8

    /// Creates a location from its fields.
    package init(segment: UInt32, offset: UInt32, length: UInt32, sequence: UInt64, kind: UInt8) {
        self.segment = segment
        self.offset = offset
        self.length = length
        self.sequence = sequence
        self.kind = kind
    }
}
