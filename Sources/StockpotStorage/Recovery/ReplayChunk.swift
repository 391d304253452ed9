// Recovery's events a chunk at a time: the values of a chunk are read, verified and
// decompressed on every core, then the events go to the upper layer in key order.

import StockpotCore

/// A run of recovery events waiting for their values.
struct ReplayChunk {
    /// Events per chunk: enough to keep the cores busy, few enough (a few MB of values) to
    /// keep memory flat on a large replay.
    static let capacity = 2048
    /// Chunks with fewer values than this are read on the calling thread.
    static let parallelThreshold = 64

    private enum Event {
        case put(key: [UInt8], location: KeyLocation)
        case delete(key: [UInt8])
    }

    private let version: StorageVersion
    private var events: [Event] = []
    private var locations: [KeyLocation] = []

    init(version: StorageVersion) {
        self.version = version
        events.reserveCapacity(Self.capacity)
        locations.reserveCapacity(Self.capacity)
    }

    var isFull: Bool { events.count >= Self.capacity }

    mutating func appendPut(_ key: [UInt8], at location: KeyLocation) {
        events.append(.put(key: key, location: location))
        locations.append(location)
    }

    mutating func appendDelete(_ key: [UInt8]) {
        events.append(.delete(key: key))
    }

    /// Reads the chunk's values and hands `body` its events in order; the first value that
    /// does not read (in key order) is thrown when its turn comes, after every event before it.
    mutating func deliver(to body: (RecoveryEvent) throws -> Void) throws {
        defer {
            events.removeAll(keepingCapacity: true)
            locations.removeAll(keepingCapacity: true)
        }
        var values = Self.values(at: locations, in: version).makeIterator()
        for event in events {
            switch event {
            case .delete(let key):
                try body(.delete(key: key))
            case .put(let key, _):
                guard let value = values.next() else { return }
                try body(.put(key: key, value: try value.get()))
            }
        }
    }

    /// The value at each location, in order, read on every core when there are enough.
    private static func values(at locations: [KeyLocation], in version: StorageVersion) -> [Result<[UInt8], StorageError>] {
        Parallel.mapParts(count: locations.count, minimumPerPart: parallelThreshold / 2) { range, results in
            // Each part reads with its own reader: no lock or shared reference count per value
            // (nor the decoded value cache's: a replay reads each record once).
            var reader = ValueReader(version: version, usesCache: false)
            for index in range {
                let location = locations[index]
                results.set(index, Result { () throws(StorageError) in try reader.value(at: location) })
            }
        }
    }
}
