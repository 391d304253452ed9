// An example index kind registered from outside the library (docs/indexes.md): the ids of
// each distinct value in a hash table, so that an exact query costs one lookup instead of two
// binary searches, and a LIKE tests each distinct value once instead of every entry's. It
// counts the operations it answers, so tests can see the planner chose it.

import Stockpot
import Synchronization

struct DistinctValuesIndex: PathIndex {
    static let kindName = "distinct_values"

    /// How many equalities any instance answered, in this process.
    private static let answeredEqualities = Atomic<Int>(0)
    /// How many LIKE conditions any instance answered, in this process.
    private static let answeredLikes = Atomic<Int>(0)

    /// The operations answered so far, in this process.
    struct AnswerCounts {
        var equalities: Int
        var likes: Int
    }

    static var answerCounts: AnswerCounts {
        AnswerCounts(equalities: answeredEqualities.load(ordering: .relaxed), likes: answeredLikes.load(ordering: .relaxed))
    }

    /// The ids of each value, ascending.
    private var ids: [IndexValue: [Int64]] = [:]
    private(set) var count = 0

    init() {}

    init(serialized bytes: UnsafeRawBufferPointer) throws {
        var reader = Reader(bytes: bytes)
        let values = try reader.integer()
        for _ in 0..<values {
            let value = try reader.value()
            let idCount = try reader.integer()
            guard idCount > 0 else { throw Reader.Failure() }
            var list: [Int64] = []
            for _ in 0..<idCount { list.append(Int64(bitPattern: try reader.integer())) }
            guard list == list.sorted(), ids[value] == nil else { throw Reader.Failure() }
            ids[value] = list
            count += list.count
        }
        guard reader.offset == bytes.count else { throw Reader.Failure() }
    }

    mutating func insert(_ value: IndexValue, id: Int64) {
        var list = ids[value, default: []]
        let position = list.firstIndex { $0 > id } ?? list.endIndex
        list.insert(id, at: position)
        ids[value] = list
        count += 1
    }

    mutating func remove(_ value: IndexValue, id: Int64) {
        guard var list = ids[value], let position = list.firstIndex(of: id) else { return }
        list.remove(at: position)
        ids[value] = list.isEmpty ? nil : list
        count -= 1
    }

    mutating func remove(ids removed: Set<Int64>) {
        for (value, list) in ids {
            let kept = list.filter { !removed.contains($0) }
            count -= list.count - kept.count
            ids[value] = kept.isEmpty ? nil : kept
        }
    }

    /// Values in index order, each with its ids: the same pairs give the same bytes.
    func serialized() -> [UInt8] {
        var out: [UInt8] = []
        Self.append(UInt64(ids.count), to: &out)
        for value in ids.keys.sorted() {
            Self.append(value, to: &out)
            let list = ids[value]!
            Self.append(UInt64(list.count), to: &out)
            for id in list { Self.append(UInt64(bitPattern: id), to: &out) }
        }
        return out
    }

    /// An equality: one lookup plus the ids. A LIKE: one test per distinct value plus the
    /// ids of those that match. Ranges are left to the ordered index.
    func estimatedCost(of operation: IndexOperation) -> Int? {
        switch operation {
        case .equal(let value): return (ids[value]?.count ?? 0) + 1
        case .like(let condition): return ids.reduce(ids.count) { $0 + (condition.matches($1.key) ? $1.value.count : 0) }
        case .between: return nil
        }
    }

    func ids(answering operation: IndexOperation) -> [Int64] {
        switch operation {
        case .equal(let value):
            Self.answeredEqualities.add(1, ordering: .relaxed)
            return ids[value] ?? []
        case .like(let condition):
            Self.answeredLikes.add(1, ordering: .relaxed)
            return ids.filter { condition.matches($0.key) }.values.flatMap { $0 }.sorted()
        case .between:
            return []
        }
    }

    // MARK: Bytes: integers as 8 bytes little-endian; a value as a tag and its payload.

    private static func append(_ integer: UInt64, to out: inout [UInt8]) {
        withUnsafeBytes(of: integer.littleEndian) { out += $0 }
    }

    private static func append(_ value: IndexValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(0)
        case .integer(let integer): out.append(1); append(UInt64(bitPattern: integer), to: &out)
        case .double(let double): out.append(2); append(double.bitPattern, to: &out)
        case .text(let text):
            out.append(3)
            append(UInt64(text.utf8.count), to: &out)
            out += text.utf8
        }
    }

    private struct Reader {
        struct Failure: Error {}
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        mutating func integer() throws -> UInt64 {
            guard bytes.count - offset >= 8 else { throw Failure() }
            defer { offset += 8 }
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }

        mutating func value() throws -> IndexValue {
            guard offset < bytes.count else { throw Failure() }
            let tag = bytes[offset]
            offset += 1
            switch tag {
            case 0: return .null
            case 1: return .integer(Int64(bitPattern: try integer()))
            case 2: return .double(Double(bitPattern: try integer()))
            case 3:
                let length = try integer()
                guard length <= UInt64(bytes.count - offset) else { throw Failure() }
                defer { offset += Int(length) }
                return .text(String(decoding: bytes[offset..<offset + Int(length)], as: UTF8.self))
            default: throw Failure()
            }
        }
    }
}
