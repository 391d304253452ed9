// PostingList and PostingCursor against a dictionary model: appends, inserts below the last id
// (splitting blocks), removals one by one and in bulk, seeks, and copies left untouched.

import Testing
@testable import StockpotIndex
import StockpotTestSupport

@Suite struct PostingListTests {
    static let format = PostingFormat(columnCount: 2, hasPositions: true)

    /// A random valid payload: one or two column groups of ascending positions.
    static func payload(_ random: inout SeededRandom) -> [UInt8] {
        var groups: [PositionGroup] = []
        for column in 0..<2 where Bool.random(using: &random) || (column == 1 && groups.isEmpty) {
            var positions: [Int] = []
            var position = Int.random(in: 0...300, using: &random)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                positions.append(position)
                position += Int.random(in: 1...200, using: &random)
            }
            groups.append(PositionGroup(column: column, positions: positions))
        }
        var bytes: [UInt8] = []
        PostingCoding.appendPayload(groups, format: format, to: &bytes)
        return bytes
    }

    /// Every entry of a list, decoded block by block, with the block invariants checked.
    static func contents(_ list: PostingList) -> [(Int64, [UInt8])] {
        var result: [(Int64, [UInt8])] = []
        var previousLast: Int64?
        for index in 0..<list.blockCount {
            let block = list.block(index)
            let entries = PostingList.decode(block, format: format)
            #expect(block.count > 0 && entries.count == Int(block.count))
            #expect(entries.last?.id == block.lastId)
            #expect(block.bytes.count <= 2 * PostingList.blockTargetBytes + 64)
            if let previousLast { #expect(entries.first!.id > previousLast) }
            previousLast = block.lastId
            result += entries.map { ($0.id, Array($0.payload)) }
        }
        #expect(result.count == list.entryCount)
        return result
    }

    @Test func randomOperationsMatchADictionary() {
        let seed = SeededRandom.seedFromEnvironment()
        var random = SeededRandom(seed: seed)
        var list = PostingList()
        var model: [Int64: [UInt8]] = [:]
        var snapshots: [(PostingList, [Int64: [UInt8]])] = []
        for step in 0..<3000 {
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<9:  // append above the last id
                let id = (model.keys.max() ?? -50) + Int64.random(in: 1...1000, using: &random)
                let bytes = Self.payload(&random)
                let added = list.insert(id: id, payload: bytes, format: Self.format)
                #expect(added)
                model[id] = bytes
            case 9..<15:  // insert anywhere, mostly into a narrow range so that blocks split
                let id = Int64.random(in: -100...(Bool.random(using: &random) ? 2000 : 200_000), using: &random)
                let bytes = Self.payload(&random)
                let added = list.insert(id: id, payload: bytes, format: Self.format)
                #expect(added == (model[id] == nil))
                model[id] = bytes
            case 15..<18:
                let id = model.keys.randomElement(using: &random) ?? 0
                let removed = list.remove(id: id, format: Self.format)
                #expect(removed == (model[id] != nil))
                model[id] = nil
            default:
                let ids = Set(model.keys.shuffled(using: &random).prefix(4) + [Int64.random(in: -10...10, using: &random)])
                let present = ids.filter { model[$0] != nil }.count
                let removed = list.remove(sortedIds: ids.sorted(), format: Self.format)
                #expect(removed == present)
                for id in ids { model[id] = nil }
            }
            if step % 500 == 0 { snapshots.append((list, model)) }
            if step % 100 == 99 {
                let expected = model.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
                let actual = Self.contents(list)
                guard actual.map(\.0) == expected.map(\.0), actual.map(\.1) == expected.map(\.1) else {
                    Issue.record("seed \(seed), step \(step): list differs from the model")
                    return
                }
            }
        }
        #expect(list.blockCount >= 5, "seed \(seed): the run should reach many blocks")
        for (copy, expected) in snapshots {  // copies taken along the way never changed
            #expect(Self.contents(copy).map(\.0) == expected.keys.sorted(), "seed \(seed)")
        }
    }

    @Test func descendingInsertsSplitBlocks() {
        var list = PostingList()
        var random = SeededRandom(seed: 7)
        for id in stride(from: Int64(2000), to: 0, by: -1) {
            list.insert(id: id, payload: Self.payload(&random), format: Self.format)
        }
        #expect(list.entryCount == 2000)
        #expect(list.blockCount > 10)
        #expect(Self.contents(list).map(\.0) == Array(1...2000))
    }

    @Test func cursorSeeksLikeALinearScan() {
        let seed = SeededRandom.seedFromEnvironment()
        var random = SeededRandom(seed: seed)
        var list = PostingList()
        var ids: [Int64] = []
        var id: Int64 = -3
        for _ in 0..<2000 {
            id += Int64.random(in: 1...9, using: &random)
            ids.append(id)
            list.append(id: id, payload: Self.payload(&random))
        }
        var cursor = PostingCursor(list, format: Self.format)
        var target: Int64 = -10
        while true {
            target += Int64.random(in: 0...40, using: &random)
            cursor.seek(atLeast: target)
            let expected = ids.first { $0 >= target }
            #expect(cursor.isAtEnd == (expected == nil), "seed \(seed), target \(target)")
            guard let expected, !cursor.isAtEnd else { break }
            #expect(cursor.id == expected, "seed \(seed), target \(target)")
            target = cursor.id
        }
        var walked: [Int64] = []
        var full = PostingCursor(list, format: Self.format)
        while !full.isAtEnd {
            walked.append(full.id)
            full.advance()
        }
        #expect(walked == ids)
    }

    @Test func varintsRoundTripAndRejectOverlongInput() {
        for value: UInt64 in [0, 1, 127, 128, 300, 1 << 35, UInt64.max] {
            var bytes: [UInt8] = []
            PostingCoding.appendVarint(value, to: &bytes)
            var offset = 0
            let read = bytes.withUnsafeBufferPointer { PostingCoding.readVarint($0, &offset) }
            #expect(read == value)
            #expect(offset == bytes.count)
        }
        let overlong: [[UInt8]] = [
            Array(repeating: 0xFF, count: 10) + [0x01], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02], [0x80],
        ]
        for bytes in overlong {
            var offset = 0
            let read = bytes.withUnsafeBufferPointer { PostingCoding.readVarint($0, &offset) }
            #expect(read == nil)
        }
    }
}
