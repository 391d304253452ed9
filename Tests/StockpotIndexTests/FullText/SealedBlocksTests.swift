// SealedBlocks (a posting list's full blocks in chunks) against an array: appends, splits,
// removals and in-place changes across many chunks, lookups by last id, and copies that
// later changes do not reach.

import Testing
@testable import StockpotIndex
import StockpotTestSupport

@Suite struct SealedBlocksTests {
    static func block(lastId: Int64, count: Int32 = 1) -> PostingBlock {
        PostingBlock(bytes: [UInt8(truncatingIfNeeded: lastId)], lastId: lastId, count: count)
    }

    static func requireSame(_ blocks: SealedBlocks, _ model: [PostingBlock], _ context: String) throws {
        try #require(blocks.count == model.count, "\(context): count")
        var index = 0
        blocks.forEach { block in
            #expect(block.lastId == model[index].lastId && block.count == model[index].count, "\(context): block \(index)")
            index += 1
        }
        for (position, expected) in model.enumerated() {
            try #require(blocks[position].lastId == expected.lastId, "\(context): subscript \(position)")
        }
    }

    @Test func randomOperationsMatchAnArray() throws {
        let seed = SeededRandom.seedFromEnvironment()
        var random = SeededRandom(seed: seed)
        var blocks = SealedBlocks()
        var model: [PostingBlock] = []
        var held: [(SealedBlocks, [PostingBlock])] = []
        // Ids spaced far apart, so that a split always finds room below a block's last id.
        var nextId: Int64 = 1 << 40
        for step in 0..<4_000 {
            let context = "seed \(seed) step \(step)"
            switch random.below(10) {
            case 0..<5:
                let block = Self.block(lastId: nextId)
                nextId += 1 << 40
                blocks.append(block)
                model.append(block)
            case 5..<7 where !model.isEmpty:
                let index = random.below(model.count)
                let low = index > 0 ? model[index - 1].lastId : 0
                let lower = Self.block(lastId: low + (model[index].lastId - low) / 2)
                let upper = Self.block(lastId: model[index].lastId, count: 2)
                blocks.replace(index, with: lower, upper)
                model.replaceSubrange(index...index, with: [lower, upper])
            case 7 where !model.isEmpty:
                let index = random.below(model.count)
                let removed = blocks.remove(at: index)
                try #require(removed.lastId == model.remove(at: index).lastId, "\(context): removed")
            case 8 where !model.isEmpty:
                let index = random.below(model.count)
                blocks[index].count += 5
                model[index].count += 5
            default:
                let probe = Int64(random.below(Int(nextId >> 38))) << 38
                let expected = model.firstIndex { $0.lastId >= probe } ?? model.count
                try #require(blocks.firstIndex(lastIdAtLeast: probe) == expected, "\(context): firstIndex \(probe)")
            }
            try #require(blocks.last?.lastId == model.last?.lastId, "\(context): last")
            if step % 400 == 0 { held.append((blocks, model)) }
            if step % 500 == 499 { try Self.requireSame(blocks, model, context) }
        }
        #expect(blocks.chunkCount > 10)
        for (index, (copy, expected)) in held.enumerated() { try Self.requireSame(copy, expected, "seed \(seed) copy \(index)") }
    }
}
