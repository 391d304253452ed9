// Every store file name, built and parsed in one place: NNNNNNNNNNNN.<ext>[.tmp], MANIFEST, LOCK.
// Formats: docs/format/segment.md ("Name"), blob.md, dictionary.md, hint.md, snapshot.md, manifest.md.

/// The kinds of numbered file in a store directory.
package enum FileKind: Sendable, Hashable, CaseIterable {
    /// A log segment (`.seg`, segment.md).
    case segment
    /// A hint file describing a sealed segment (`.hint`, hint.md).
    case hint
    /// A large value stored on its own (`.blob`, blob.md).
    case blob
    /// An LZ4 dictionary (`.dict`, dictionary.md).
    case dictionary
    /// An upper-layer snapshot (`.snap`, snapshot.md).
    case snapshot

    /// The file name extension, without the dot.
    package var fileExtension: String {
        switch self {
        case .segment: "seg"
        case .hint: "hint"
        case .blob: "blob"
        case .dictionary: "dict"
        case .snapshot: "snap"
        }
    }
}

/// Builds and parses the names of a store's files.
///
/// Numbered files are `NNNNNNNNNNNN.<ext>`: the file number in exactly twelve zero-padded
/// decimal digits, so names sort in number order. A file being written carries `.tmp` after
/// its final name. Stateless; safe from any thread.
package enum FileNames {
    /// The manifest's name (manifest.md).
    package static let manifest = "MANIFEST"
    /// The lock file earlier releases used; the store now locks its directory, and a file
    /// of this name is ignored.
    package static let legacyLock = "LOCK"
    /// The suffix of a file still being written.
    package static let temporarySuffix = ".tmp"
    /// The number of decimal digits in a numbered file's name.
    package static let digitCount = 12
    /// The valid file numbers: 0 is never a file (the manifest uses it for "none"), and larger
    /// numbers do not fit in twelve digits.
    package static let numbers: ClosedRange<UInt64> = 1...999_999_999_999

    /// Returns the name of file `number` of `kind`, such as `000000000007.seg`.
    ///
    /// - Precondition: `number` is in ``numbers`` (a programmer error otherwise; the file counter
    ///   cannot reach the limit in practice).
    package static func name(_ kind: FileKind, _ number: UInt64) -> String {
        precondition(numbers.contains(number), "file number \(number) is outside 1...999999999999")
        let digits = String(number)
        return String(repeating: "0", count: digitCount - digits.count) + digits + "."
            + kind.fileExtension
    }

    /// Returns the temporary name under which `name` is written before its rename.
    package static func temporary(_ name: String) -> String {
        name + temporarySuffix
    }

    /// Parses a numbered file's name, or returns nil for any other name (including `MANIFEST`,
    /// `LOCK`, names with more or fewer than twelve digits, and number 0).
    package static func parse(
        _ name: String
    ) -> (kind: FileKind, number: UInt64, temporary: Bool)? {
        var utf8 = name.utf8[...]
        let suffix = temporarySuffix.utf8
        let temporary = utf8.count > suffix.count && utf8.suffix(suffix.count).elementsEqual(suffix)
        if temporary { utf8 = utf8.dropLast(suffix.count) }
        guard utf8.count > digitCount + 1 else { return nil }
        var number: UInt64 = 0
        for byte in utf8.prefix(digitCount) {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            number = number * 10 + UInt64(byte - UInt8(ascii: "0"))
        }
        let rest = utf8.dropFirst(digitCount)
        guard rest.first == UInt8(ascii: "."), numbers.contains(number) else { return nil }
        let fileExtension = rest.dropFirst()
        guard
            let kind = FileKind.allCases.first(where: {
                fileExtension.elementsEqual($0.fileExtension.utf8)
            })
        else { return nil }
        return (kind, number, temporary)
    }
}
