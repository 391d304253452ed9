// The planner's one question to the registered index kinds of a spec (docs/indexes.md): is
// any of them cheaper than the ordered index for this operation? Asked by exact, range and
// like query specs and by Smart SQL's equalities; the costs are in entries visited.

import StockpotIndex
import StockpotJSON

extension QueryableSoup {
    /// The ids that the cheapest registered-kind index on spec `spec` gives for `operation`
    /// (ascending, each once), when its estimate is below `orderedCost`; nil when no kind
    /// answers the operation more cheaply than the ordered index.
    func registeredAnswer(spec: Int, _ operation: @autoclosure () -> IndexOperation, orderedCost: @autoclosure () -> Int) -> [Int64]? {
        RegisteredKinds.answer(registeredIndexes(ofSpec: spec), operation(), orderedCost: orderedCost())
    }
}

/// The choice among registered-kind indexes.
enum RegisteredKinds {
    /// The ids that the cheapest of `indexes` gives for `operation` (ascending, each once),
    /// when its estimate is below `orderedCost`; nil when none answers it more cheaply. The
    /// operation and the ordered index's cost are worked out only when there are indexes:
    /// most specs name no kind.
    static func answer(_ indexes: [any PathIndex], _ operation: @autoclosure () -> IndexOperation, orderedCost: @autoclosure () -> Int) -> [Int64]? {
        guard !indexes.isEmpty else { return nil }
        let operation = operation()
        let orderedCost = orderedCost()
        var best: (index: any PathIndex, cost: Int)?
        for index in indexes {
            if let cost = index.estimatedCost(of: operation), cost < (best?.cost ?? orderedCost) { best = (index, cost) }
        }
        return best?.index.ids(answering: operation)
    }
}

/// What reading runs of an ordered index costs, in the unit of
/// ``PathIndex/estimatedCost(of:)``: their entries plus the two binary searches that found
/// each run.
enum OrderedIndexCost {
    /// The cost of reading `runs` of `index`: a run of n entries costs n plus two binary
    /// searches of the index.
    static func of(_ runs: [Range<Int>], in index: OrderedIndex) -> Int {
        runs.reduce(0) { $0 + $1.count } + runs.count * 2 * (Int.bitWidth - index.count.leadingZeroBitCount)
    }
}
