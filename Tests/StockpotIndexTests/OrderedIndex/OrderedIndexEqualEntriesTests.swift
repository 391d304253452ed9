// `forEachEntry(equalTo:)`: the entries equal to a value, in order, from one descent; checked
// against a filter of every entry, across node boundaries (small nodes) and value kinds.
import Testing
import StockpotIndex
import StockpotJSON

@Suite struct OrderedIndexEqualEntriesTests {
    private static func equalEntries(_ index: OrderedIndex, _ value: IndexValue) -> [IndexEntry] {
        var found: [IndexEntry] = []
        index.forEachEntry(equalTo: value) { entry in
            found.append(entry)
            return true
        }
        return found
    }

    @Test(arguments: [3, 4, 64])
    func visitsExactlyTheEqualEntriesInOrder(capacity: Int) {
        var index = OrderedIndex(leafCapacity: capacity, branchCapacity: max(3, capacity))
        var all: [IndexEntry] = []
        var random = SystemRandomNumberGenerator()
        let values: [IndexValue] = [.null, .integer(1), .double(1.0), .double(1.5), .integer(2), .text("a"), .text("ab"), .text("b")]
        for id in 1...400 {
            let value = values[Int.random(in: 0..<values.count, using: &random)]
            index.insert(value, id: Int64(id))
            all.append(IndexEntry(value: value, id: Int64(id)))
        }
        for probe: IndexValue in [.null, .integer(1), .double(1.5), .integer(2), .text("a"), .text("ab"), .text("c"), .integer(0)] {
            let expected = all.filter { $0.value == probe }.sorted { $0.id < $1.id }
            let found = Self.equalEntries(index, probe)
            #expect(found.map(\.id) == expected.map(\.id), "probe \(probe)")
            // Numbers keep their own kind (1.0 stays a double when probed with 1).
            #expect(found.map(\.value.description) == expected.map(\.value.description), "probe \(probe)")
        }
    }

    @Test func stopsWhenTheBodySaysSo() {
        var index = OrderedIndex(leafCapacity: 3, branchCapacity: 3)
        for id in 1...50 { index.insert(.text("x"), id: Int64(id)) }
        var seen = 0
        index.forEachEntry(equalTo: .text("x")) { _ in
            seen += 1
            return seen < 7
        }
        #expect(seen == 7)
        #expect(Self.equalEntries(OrderedIndex(), .text("x")).isEmpty)
    }
}
