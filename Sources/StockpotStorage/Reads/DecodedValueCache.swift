// A small cache of decompressed values, so that rows read again (a list screen shown again,
// the first page of a popular query) skip the checksum and LZ4 decode their record costs.
// SmartStore's SQLite keeps recently read pages in its page cache (2 MB by default), and
// RocksDB's block cache holds uncompressed blocks for the same reason. Design: docs/store.md,
// "The decoded value cache".

import Synchronization

/// Decompressed values keyed by where their record lives (segment number, offset).
///
/// A record never changes once written and its place is never reused (segment numbers are
/// never reused, offsets only grow), so an entry can never be stale: nothing is invalidated
/// on writes, compaction or deletes; entries for records nobody points at age out.
///
/// - Admission: a value enters on its second miss within the doorkeeper's memory (a table of
///   recently missed addresses), so a stream of one-off reads (random gets, a scan) costs a
///   lookup each and displaces nothing.
/// - Eviction: set-associative, least recently used within a set; the bytes held never exceed
///   the capacity.
/// - Bypass: while fewer than one lookup in ``bypassHitShare`` hits (judged over windows of
///   ``windowProbes`` lookups), only one lookup in ``bypassSampling`` looks; the others answer
///   `.skip` at once. Random reads over far more values than it holds (about one hit in 50 for
///   2 MiB and 100,000 documents) then stop paying a lock, a set and a doorkeeper write each
///   for hits they almost never get; the sampled lookups still admit values and notice when a
///   hot set appears.
///
/// Thread-safe: one lock, held for a lookup (values are handed out shared, not copied) or an
/// insertion, never while a record is read or decoded.
package final class DecodedValueCache: Sendable {
    /// The most bytes of values held.
    package let capacityBytes: Int
    /// Values longer than this are never cached: one would push out dozens of documents.
    package let largestValue: Int

    private let state: Mutex<State>
    /// Whether the last window's lookups hit under one time in ``bypassHitShare``.
    private let bypassing = Atomic<Bool>(false)
    /// Lookups made while bypassing; one in ``bypassSampling`` of them looks.
    private let bypassTickets = Atomic<Int>(0)

    /// Lookups in a window, after which the cache decides whether to bypass.
    let windowProbes: Int
    /// The cache bypasses while fewer than one lookup in this many hits. A hit saves a record
    /// read, its checksum and its decode (about 1 us for a 1 KB document, more when the page
    /// is not in memory); a lookup that misses costs about 0.15 us. Below one in 16 the misses
    /// cost more than the hits save, with room to spare for hits that save a disk read.
    static let bypassHitShare = 16
    /// While bypassing, one lookup in this many looks (a power of two).
    static let bypassSampling = 16

    /// What a lookup found.
    package enum Lookup: Equatable {
        /// The value is cached.
        case hit
        /// Not cached; the caller should ``insert(_:segment:offset:)`` the value once it has
        /// decoded it.
        case admit
        /// Not cached, and not to be inserted (its first miss, or too long).
        case skip
    }

    /// Counters since the cache was made.
    package struct Statistics: Sendable, Equatable {
        package var hits = 0
        package var misses = 0
        package var insertions = 0
        package var evictions = 0
        /// Bytes of values held now.
        package var bytes = 0
        /// Values held now.
        package var values = 0
        /// Of the misses, lookups answered without looking, while the cache bypassed.
        package var bypassed = 0
    }

    /// A cache of at most `capacityBytes` bytes of values; nil when that is 0 or less (off).
    /// `windowProbes` is the number of lookups after which it decides whether to bypass
    /// (smaller in tests).
    package init?(capacityBytes: Int, windowProbes: Int = 4096) {
        guard capacityBytes > 0 else { return nil }
        self.capacityBytes = capacityBytes
        self.windowProbes = max(1, windowProbes)
        largestValue = max(1, capacityBytes / 64)
        // One entry per 512 bytes of capacity, in sets of `ways`: room for twice as many
        // typical (1 KB) documents as the bytes allow, so that smaller ones fill it too. An
        // entry costs 24 bytes and two doorkeeper slots 16 (under 8% of the capacity), made
        // at once: past 128 MiB the entries stop growing (at most 262,144, 10 MiB).
        let sets = min(State.maximumSets, max(1, (capacityBytes / 512 / State.ways).roundedUpToPowerOfTwo))
        state = Mutex(State(sets: sets))
    }

    /// The cached value of the record at `segment`/`offset` (shared, not copied), or whether
    /// to insert it once decoded; `length` is the record's length (a bound on the value's
    /// is not known before it is decoded, so admission is decided again at insertion).
    package func value(segment: UInt32, offset: UInt32, length: Int) -> (value: [UInt8]?, lookup: Lookup) {
        var sampled = false
        if bypassing.load(ordering: .relaxed) {
            let ticket = bypassTickets.wrappingAdd(1, ordering: .relaxed).oldValue
            if ticket & (Self.bypassSampling - 1) != 0 { return (nil, .skip) }
            sampled = true
        }
        let key = Self.key(segment, offset)
        return state.withLock { state in
            if sampled { state.sampledTickets += 1 }
            let found = state.probe(key, admissible: length <= largestValue)
            countProbe(hit: found.lookup == .hit, in: &state)
            return found
        }
    }

    /// Counts a lookup that looked into the window, and at the window's end decides whether
    /// to bypass for the next one. Called under the lock.
    private func countProbe(hit: Bool, in state: inout State) {
        state.windowProbes += 1
        if hit { state.windowHits += 1 }
        guard state.windowProbes >= windowProbes else { return }
        bypassing.store(state.windowHits * Self.bypassHitShare < state.windowProbes, ordering: .relaxed)
        state.windowProbes = 0
        state.windowHits = 0
    }

    /// A record to look up: where it is and its length.
    package struct Address {
        package var segment: UInt32
        package var offset: UInt32
        package var length: Int
    }

    /// ``value(segment:offset:length:)`` for each address (`.skip` for `nil`), under one lock:
    /// a page of query results asks once.
    package func values(at addresses: [Address?]) -> [(value: [UInt8]?, lookup: Lookup)] {
        // A page looks for every row under one lock, bypassing or not: the lock, the
        // cost a bypass saves most of, is paid once for the page.
        state.withLock { state in
            addresses.map { address in
                guard let address else { return (nil, .skip) }
                let found = state.probe(Self.key(address.segment, address.offset), admissible: address.length <= largestValue)
                countProbe(hit: found.lookup == .hit, in: &state)
                return found
            }
        }
    }

    /// Keeps `value`, the decoded value of the record at `segment`/`offset`, after a lookup
    /// answered `.admit`.
    package func insert(_ value: [UInt8], segment: UInt32, offset: UInt32) {
        guard value.count <= largestValue else { return }
        let key = Self.key(segment, offset)
        state.withLock { state in state.insert(value, key: key, capacity: capacityBytes) }
    }

    /// The counters so far.
    package var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            // Every bypassing lookup took a ticket; those whose ticket looked were counted as
            // hits or misses when they looked.
            statistics.bypassed = bypassTickets.load(ordering: .relaxed) - state.sampledTickets
            statistics.misses += statistics.bypassed
            return statistics
        }
    }

    /// Whether lookups are bypassing the cache now (see the type's documentation).
    package var isBypassing: Bool { bypassing.load(ordering: .relaxed) }

    /// One word per record address. 0 is never a record's (a segment's header is at offset
    /// 0, its records after it), so it marks an empty way.
    private static func key(_ segment: UInt32, _ offset: UInt32) -> UInt64 {
        UInt64(segment) << 32 | UInt64(offset)
    }
}

extension DecodedValueCache {
    /// The entries and the doorkeeper, behind the cache's lock.
    private struct State: ~Copyable {
        static let ways = 8
        static let maximumSets = 1 << 15

        struct Entry {
            var key: UInt64 = 0
            var lastUse: UInt64 = 0
            var value: [UInt8] = []
        }

        /// `sets` runs of `ways` entries; a key lives in the set its hash picks.
        var entries: [Entry]
        /// Addresses missed once, each in the slot its hash picks (0 for none).
        var doorkeeper: [UInt64]
        let setShift: Int
        let doorShift: Int
        var clock: UInt64 = 0
        var statistics = Statistics()
        /// Lookups and hits in the current window.
        var windowProbes = 0
        var windowHits = 0
        /// Bypass tickets that looked.
        var sampledTickets = 0

        init(sets: Int) {
            entries = Array(repeating: Entry(), count: sets * Self.ways)
            // Twice as many remembered misses as entries: a page read twice within a few
            // thousand other misses gets in.
            let doorSlots = 2 * sets * Self.ways
            doorkeeper = Array(repeating: 0, count: doorSlots)
            setShift = 64 - sets.trailingZeroBitCount
            doorShift = 64 - doorSlots.trailingZeroBitCount
        }

        /// Fibonacci hashing: the product's top bits spread nearby addresses apart.
        private func mixed(_ key: UInt64) -> UInt64 { key &* 0x9E37_79B9_7F4A_7C15 }

        private func firstWay(of key: UInt64) -> Int {
            setShift == 64 ? 0 : Int(truncatingIfNeeded: mixed(key) >> UInt64(setShift)) * Self.ways
        }

        /// The value held for `key`, or whether to keep it once decoded (see `Lookup`).
        mutating func probe(_ key: UInt64, admissible: Bool) -> (value: [UInt8]?, lookup: Lookup) {
            if let way = find(key) {
                touch(way)
                return (entries[way].value, .hit)
            }
            return (nil, missed(key, admissible: admissible) ? .admit : .skip)
        }

        func find(_ key: UInt64) -> Int? {
            let first = firstWay(of: key)
            for way in first..<first + Self.ways where entries[way].key == key { return way }
            return nil
        }

        mutating func touch(_ way: Int) {
            clock &+= 1
            entries[way].lastUse = clock
            statistics.hits += 1
        }

        /// Records a miss of `key`; true when it was missed recently too (admit it now).
        mutating func missed(_ key: UInt64, admissible: Bool) -> Bool {
            statistics.misses += 1
            guard admissible else { return false }
            // A different multiplier's bits, so that keys sharing a set do not share a slot.
            let slot = doorShift == 64 ? 0 : Int(truncatingIfNeeded: (key &* 0xC2B2_AE3D_27D4_EB4F) >> UInt64(doorShift))
            if doorkeeper[slot] == key {
                doorkeeper[slot] = 0
                return true
            }
            doorkeeper[slot] = key
            return false
        }

        mutating func insert(_ value: [UInt8], key: UInt64, capacity: Int) {
            guard find(key) == nil else { return }  // another reader got there first
            let first = firstWay(of: key)
            var victim = first
            for way in first..<first + Self.ways where entries[way].lastUse < entries[victim].lastUse {
                victim = way
            }
            evict(victim)
            // Over the byte budget: make room from this set, least recently used first; give
            // up rather than hold more than the capacity.
            while statistics.bytes + value.count > capacity {
                guard let next = leastRecentlyUsedHeld(in: first) else { return }
                evict(next)
            }
            clock &+= 1
            entries[victim] = Entry(key: key, lastUse: clock, value: value)
            statistics.bytes += value.count
            statistics.values += 1
            statistics.insertions += 1
        }

        private func leastRecentlyUsedHeld(in first: Int) -> Int? {
            var found: Int?
            for way in first..<first + Self.ways where entries[way].key != 0 {
                if found.map({ entries[way].lastUse < entries[$0].lastUse }) ?? true { found = way }
            }
            return found
        }

        private mutating func evict(_ way: Int) {
            guard entries[way].key != 0 else { return }
            statistics.bytes -= entries[way].value.count
            statistics.values -= 1
            statistics.evictions += 1
            entries[way] = Entry()
        }
    }
}

extension Int {
    /// The smallest power of two at least `self` (1 for anything below 2).
    fileprivate var roundedUpToPowerOfTwo: Int {
        self <= 1 ? 1 : 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount)
    }
}
