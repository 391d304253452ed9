// The failure a fuzz target reports when an input breaks a property it checks (a decoder that
// accepts what it should reject, a round trip that changes a value, an `internal` answer).

/// A property a fuzz target checks did not hold for an input.
///
/// Traps in product code (an out-of-bounds index, an overflow, a stack overflow) are not
/// caught: they crash the process, which is what libFuzzer looks for.
package struct FuzzFailure: Error, Sendable, CustomStringConvertible {
    /// The target that failed.
    package var target: String
    /// What did not hold.
    package var message: String

    /// Creates a failure.
    package init(_ target: String, _ message: String) {
        self.target = target
        self.message = message
    }

    package var description: String { "\(target): \(message)" }
}
