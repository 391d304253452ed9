// The one reader of the `STOCKPOT_*` variables that scale the long test runs (kills, rounds,
// seeds, sizes); `make crash`, `make query-soak` and `make sql-soak` set them. Also how much
// slower a sanitizer makes the code under test, for tests that wait on a child process.

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

    /// How many times slower the code runs under the sanitizer this test process was built
    /// with (`make sanitize-thread`, `make sanitize-address`): 10 under ThreadSanitizer, 3
    /// under AddressSanitizer, 1 without. Found by looking up each runtime's entry point, which
    /// only an instrumented process has. Tests that give a child process a time window to
    /// make progress in stretch it by this factor.
    public static let sanitizerSlowdown: Int = {
        if dlsym(nil, "__tsan_init") != nil { return 10 }
        if dlsym(nil, "__asan_init") != nil { return 3 }
        return 1
    }()
}
