// The one reader of the `STOCKPOT_*` variables that scale the long test runs (kills, rounds,
// seeds, sizes); `make crash`, `make query-soak` and `make sql-soak` set them.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Test settings from the environment. Stateless.
public enum TestEnvironment {
    /// The variable's text, or nil when it is not set.
    public static func string(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// The variable as an integer (decimal, a leading minus allowed), or nil when it is not
    /// set or not a number.
    public static func integer(_ name: String) -> Int? {
        string(name).flatMap { Int($0) }
    }

    /// The variable as an integer, or `fallback`.
    public static func integer(_ name: String, default fallback: Int) -> Int {
        integer(name) ?? fallback
    }

    /// The variable as an unsigned 64-bit seed, or `fallback`.
    public static func seed(_ name: String, default fallback: UInt64) -> UInt64 {
        string(name).flatMap { UInt64($0) } ?? fallback
    }
}
