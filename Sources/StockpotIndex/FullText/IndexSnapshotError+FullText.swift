// The codes the full-text index snapshot reader adds to IndexSnapshotError (whose codes can
// grow without breaking callers).

extension IndexSnapshotError.Code {
    /// The bytes do not start with the format's magic number.
    package static let invalidMagic = Self(rawValue: "invalidMagic")
    /// A field's value is out of its range or contradicts another field.
    package static let invalidValue = Self(rawValue: "invalidValue")
}
