// The error an index snapshot's bytes raise when they cannot be read: a matchable code, a
// message and the byte offset where reading stopped.

/// Malformed index snapshot bytes.
///
/// Reading a snapshot never traps on its bytes: any damage becomes this error.
package struct IndexSnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong; more codes may be added.
    package struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        package var rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// The bytes end in the middle of a field.
        package static let truncated = Code(rawValue: "truncated")
        /// The format version is not one this code reads.
        package static let unsupportedVersion = Code(rawValue: "unsupportedVersion")
        /// A value tag is not a known one.
        package static let invalidTag = Code(rawValue: "invalidTag")
        /// A varint is longer than 10 bytes or overflows 64 bits.
        package static let invalidVarint = Code(rawValue: "invalidVarint")
        /// A text value is not well-formed UTF-8.
        package static let invalidText = Code(rawValue: "invalidText")
        /// Entries are not strictly ascending (out of order or repeated).
        package static let outOfOrder = Code(rawValue: "outOfOrder")
        /// The entry count disagrees with the bytes (too large for them, or bytes left over).
        package static let countMismatch = Code(rawValue: "countMismatch")
        /// A registered index kind's bytes: another kind's, or not what the kind reads.
        package static let registeredKind = Code(rawValue: "registeredKind")
    }

    /// What was wrong.
    package var code: Code
    /// A readable explanation.
    package var message: String
    /// The byte offset in the snapshot where the problem was found.
    package var offset: Int

    package init(_ code: Code, _ message: String, offset: Int) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    package var description: String { "index snapshot \(code) at offset \(offset): \(message)" }
}
