// Per-key-space LZ4 dictionaries (docs/format/dictionary.md): samples are collected until a
// space has written enough, then its dictionary is made and every later value of the space is
// compressed against it.

/// The compression state of one key space.
struct SpaceCompression: Sendable {
    var dictionaryID: UInt16 = 0
    /// The dictionary, prepared once: loading it into LZ4 per record would cost more than
    /// compressing the record.
    var dictionary: LZ4Dictionary?
    /// Recent values, newest last, kept until the dictionary is made.
    var samples: [[UInt8]] = []
    var sampleBytes = 0
    var bytesWithoutDictionary = 0
}

extension SpaceCompression {
    /// Keeps `value` among the samples (the newest `dictionaryBytes` of them); the dictionary
    /// content once the space has written `dictionaryTrainingBytes` without one.
    mutating func sample(_ value: [UInt8], options: StorageOptions) -> [UInt8]? {
        bytesWithoutDictionary += value.count
        samples.append(value)
        sampleBytes += value.count
        var dropped = 0
        while samples.count - dropped > 1, sampleBytes - samples[dropped].count >= options.dictionaryBytes {
            sampleBytes -= samples[dropped].count
            dropped += 1
        }
        if dropped > 0 { samples.removeFirst(dropped) }
        guard bytesWithoutDictionary >= options.dictionaryTrainingBytes else { return nil }
        // Newest samples last: LZ4 prefers matches near the end of its dictionary.
        var content = Array(samples.joined())
        let limit = min(options.dictionaryBytes, 65_536)
        if content.count > limit { content.removeFirst(content.count - limit) }
        return content
    }
}

/// Compression state of every key space.
struct CompressionState: Sendable {
    var spaces: [UInt32: SpaceCompression] = [:]
    var nextDictionaryID: UInt16 = 1

    /// The key space of `key`: its first four bytes, big-endian (0 for shorter keys).
    static func space(of key: [UInt8]) -> UInt32 {
        guard key.count >= 4 else { return 0 }
        return UInt32(key[0]) << 24 | UInt32(key[1]) << 16 | UInt32(key[2]) << 8 | UInt32(key[3])
    }

    /// Notes a value written to `space`; returns the dictionary content to make when the space
    /// has written enough without one.
    mutating func observe(_ value: [UInt8], space: UInt32, options: StorageOptions) -> [UInt8]? {
        // A space with its dictionary (every value after the first few hundred KB) costs one
        // lookup; the others are changed in place, so the samples array is not copied.
        if let state = spaces[space], state.dictionaryID != 0 { return nil }
        guard options.dictionaryBytes > 0 else { return nil }
        return spaces[space, default: SpaceCompression()].sample(value, options: options)
    }

    /// Starts using dictionary `id` for `space`.
    mutating func install(id: UInt16, dictionary: LZ4Dictionary, space: UInt32) {
        var state = spaces[space, default: SpaceCompression()]
        state.dictionaryID = id
        state.dictionary = dictionary
        state.samples = []
        state.sampleBytes = 0
        spaces[space] = state
        nextDictionaryID = max(nextDictionaryID, id &+ 1)
    }
}
