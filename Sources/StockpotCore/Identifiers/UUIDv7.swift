// Time-ordered UUIDs (RFC 9562, version 7) for generated keys (docs/changes.md, "UUID keys").
// Within a process they are strictly increasing: a counter in rand_a orders the UUIDs of one
// millisecond (RFC 9562 section 6.2, method 1), and the time never goes back.

#if canImport(Glibc)
    import Glibc
#endif
import Synchronization

/// A generator of version-7 UUIDs as lowercase canonical text.
public enum UUIDv7 {
    /// The last time used (ms since the epoch) and the counter within it.
    private static let last = Mutex<(milliseconds: UInt64, counter: UInt16)>((0, 0))

    /// A fresh UUID: 48 bits of Unix milliseconds, the version 7, a 12-bit counter, the
    /// variant, then 62 bits from the system's cryptographic random source
    /// (`SystemRandomNumberGenerator`, `getrandom` on Linux). Each call's text sorts after the
    /// previous call's in the same process.
    public static func next() -> String {
        var random = SystemRandomNumberGenerator()
        let now = currentMilliseconds()
        let (milliseconds, counter) = last.withLock { last -> (UInt64, UInt16) in
            if now > last.milliseconds {
                // A fresh millisecond: the counter starts at a random value in its lower half,
                // leaving room for the UUIDs that may follow in the same millisecond.
                last = (now, UInt16.random(in: 0..<0x800, using: &random))
            } else if last.counter < 0xFFF {
                last.counter += 1
            } else {
                // The counter is used up (or the clock stepped back past it): borrow the next
                // millisecond rather than repeat or go back.
                last = (last.milliseconds + 1, UInt16.random(in: 0..<0x800, using: &random))
            }
            return last
        }
        return text(milliseconds: milliseconds, counter: counter, random: random.next())
    }

    /// The canonical text of the UUID with these fields (`random`'s top two bits are dropped
    /// for the variant).
    static func text(milliseconds: UInt64, counter: UInt16, random: UInt64) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * UInt64(index))) }
        bytes[6] = 0x70 | UInt8(truncatingIfNeeded: counter >> 8 & 0x0F)
        bytes[7] = UInt8(truncatingIfNeeded: counter)
        bytes[8] = 0x80 | UInt8(truncatingIfNeeded: random >> 56 & 0x3F)
        for index in 9..<16 { bytes[index] = UInt8(truncatingIfNeeded: random >> (8 * (15 - UInt64(index)))) }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The wall clock in milliseconds since 1970-01-01 UTC (never negative).
    package static func currentMilliseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(max(0, time.tv_sec)) * 1000 + UInt64(max(0, time.tv_nsec)) / 1_000_000
    }
}
