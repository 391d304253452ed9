// The random identity that binds a store's files to it: written in the manifest and in every
// segment and hint header (docs/format/manifest.md, segment.md, hint.md).

import StockpotCore

/// Sixteen random bytes chosen when a store is created (or upgraded from format version 1).
/// A value type; safe to share.
package struct StoreIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The identity's bytes, in file order.
    package let bytes: [UInt8]

    /// The size of an identity in a file.
    package static let size = 16

    /// Wraps `bytes`, which must be exactly 16 bytes.
    package init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count == Self.size else { return nil }
        self.bytes = Array(bytes)
    }

    /// A fresh identity from the system's random source (never all zero).
    package static func random() -> StoreIdentity {
        var generator = SystemRandomNumberGenerator()
        while true {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(size)
            for _ in 0..<2 { bytes.appendUInt64LE(generator.next()) }
            if let identity = StoreIdentity(bytes), !identity.isZero { return identity }
        }
    }

    /// Whether every byte is zero (never a valid identity).
    package var isZero: Bool { bytes.allSatisfy { $0 == 0 } }

    /// The bytes in hexadecimal, for messages.
    package var description: String {
        bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }
}

extension Array where Element == UInt8 {
    /// Appends the identity's 16 bytes.
    package mutating func appendIdentity(_ identity: StoreIdentity) {
        append(contentsOf: identity.bytes)
    }
}

extension UnsafeRawBufferPointer {
    /// The identity stored at `offset`, or nil when 16 bytes do not fit there.
    package func getIdentity(at offset: Int) -> StoreIdentity? {
        guard offset >= 0, offset <= count - StoreIdentity.size else { return nil }
        return StoreIdentity(self[offset..<offset + StoreIdentity.size])
    }
}
