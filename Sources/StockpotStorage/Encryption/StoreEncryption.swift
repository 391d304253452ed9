// How a caller asks for an encrypted store: a raw 256-bit key or a passphrase
// (docs/encryption.md, "What a caller does").

/// The key an encrypted store is opened (or created) with.
///
/// A value type holding the caller's bytes or text: the store derives what it needs into
/// guarded memory at open and never writes the key anywhere, but cannot wipe this copy.
public enum StoreEncryption: Sendable, Hashable {
    /// A raw key of exactly 32 bytes.
    case key([UInt8])
    /// A passphrase, stretched with Argon2id at `cost` (used when the store is created; an
    /// existing store keeps the cost written in its `ENCRYPTION` file).
    case passphrase(String, cost: PassphraseCost = .interactive)
}

/// Argon2id's work factors for a passphrase.
public struct PassphraseCost: Sendable, Hashable {
    /// Passes over memory, 1 ... 16.
    public var operations: UInt64
    /// Memory in bytes, 8 KiB ... 4 GiB.
    public var memoryBytes: UInt64

    /// Work factors; ``StorageEngine`` refuses values outside the documented ranges.
    public init(operations: UInt64, memoryBytes: UInt64) {
        self.operations = operations
        self.memoryBytes = memoryBytes
    }

    /// libsodium's "interactive" limits: 2 passes, 64 MiB. The default.
    public static let interactive = PassphraseCost(operations: 2, memoryBytes: 64 << 20)
    /// libsodium's "moderate" limits: 3 passes, 256 MiB (about 0.7 s on a desktop core).
    public static let moderate = PassphraseCost(operations: 3, memoryBytes: 256 << 20)

    /// The passes a header may ask for.
    package static let operationRange: ClosedRange<UInt64> = 1...16
    /// The memory a header may ask for.
    package static let memoryRange: ClosedRange<UInt64> = (8 << 10)...(4 << 30)

    /// Whether both factors are in their documented ranges.
    package var isValid: Bool { Self.operationRange.contains(operations) && Self.memoryRange.contains(memoryBytes) }
}
