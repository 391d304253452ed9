// The plan of one SELECT's FROM: for each soup in join order, the conditions checked when its
// row is set and the access path that finds its rows; and whether an ordered index gives
// ORDER BY's order, so that rows can stream and stop at LIMIT.

import StockpotIndex

/// How one SELECT walks its soups.
struct SQLJoinPlan {
    /// One soup of FROM. A class: the executor reads a level for every row of the level
    /// before it, and a struct copy would retain each of its arrays every time. Changed only
    /// while the plan is made.
    final class Level {
        /// Whether it is the right side of a LEFT JOIN.
        var isLeft: Bool
        /// A LEFT JOIN's `ON` conjuncts that the access path does not answer: whether a row
        /// is a partner.
        var joinConditions: [BoundExpression]
        /// Conjuncts (of WHERE, and of inner joins' ON) that the access path does not answer,
        /// checked once this soup's row is set.
        var conditions: [BoundExpression]
        /// How its rows are found.
        var access: SQLAccessPath
        /// Whether the access path answers every condition on the soup's rows.
        var answersEverything: Bool { joinConditions.isEmpty && conditions.isEmpty }
        /// Visit the access path's rows in descending order (an index order read backwards).
        var descending = false

        init(isLeft: Bool, joinConditions: [BoundExpression], conditions: [BoundExpression], access: SQLAccessPath) {
            self.isLeft = isLeft
            self.joinConditions = joinConditions
            self.conditions = conditions
            self.access = access
        }
    }

    var levels: [Level] = []
    /// Conditions of a SELECT without FROM (checked once).
    var constantConditions: [BoundExpression] = []
    /// Whether the rows come out in ORDER BY's order as they are found.
    var orderIsGiven = false
    /// Whether the rows come out in the order of the one GROUP BY value, so each group's
    /// rows are contiguous.
    var groupsAreContiguous = false

    /// No plan (a select not planned yet).
    init() {}

    init(_ select: BoundSelect) {
        let slots = select.tables.map(\.slot)
        func level(of condition: BoundExpression) -> Int {
            let read = condition.referencedSlots
            return slots.lastIndex(where: read.contains) ?? 0
        }
        var conditions = Array(repeating: [BoundExpression](), count: max(slots.count, 1))
        var joinConditions = Array(repeating: [BoundExpression](), count: max(slots.count, 1))
        for conjunct in Self.conjuncts(select.whereCondition) {
            conditions[level(of: conjunct)].append(conjunct)
        }
        for (i, join) in select.joins.enumerated() {
            for conjunct in Self.conjuncts(join.on) {
                if join.kind == .left {
                    joinConditions[i + 1].append(conjunct)
                } else {
                    conditions[max(level(of: conjunct), i + 1)].append(conjunct)
                }
            }
        }
        guard !select.tables.isEmpty else {
            constantConditions = conditions[0]
            return
        }
        for (i, table) in select.tables.enumerated() {
            let isLeft = i > 0 && select.joins[i - 1].kind == .left
            let later = Set(slots[i...])
            let planner = SQLAccessPlanner(table: table, laterSlots: later)
            let (access, answered) = planner.accessPath(for: isLeft ? joinConditions[i] : conditions[i])
            func unanswered(_ list: [BoundExpression]) -> [BoundExpression] {
                list.enumerated().filter { !answered.contains($0.offset) }.map(\.element)
            }
            levels.append(
                Level(
                    isLeft: isLeft, joinConditions: isLeft ? unanswered(joinConditions[i]) : [],
                    conditions: isLeft ? conditions[i] : unanswered(conditions[i]), access: access))
        }
        if !select.isAggregate, !select.distinct, let first = select.orderBy.first {
            orderFromIndex(select, first)
        }
        if select.isAggregate, select.groupBy.count == 1 {
            groupFromIndex(select)
        }
    }

    /// Reads the first soup in the order of an ordered index on the one GROUP BY value, when
    /// the soup is found by a scan or a range of that index.
    private mutating func groupFromIndex(_ select: BoundSelect) {
        groupsAreContiguous = readFirstSoupInOrder(of: select.groupBy[0], select)
    }

    /// Reads the first soup in an ordered index's order when that is ORDER BY's order: one
    /// term on an indexed field of the first soup (or that and its `_soupEntryId` in the same
    /// direction), and the first soup is found by a scan or a range of that same index.
    private mutating func orderFromIndex(_ select: BoundSelect, _ first: (expression: BoundExpression, descending: Bool)) {
        let table = select.tables[0]
        if select.orderBy.count > 2 { return }
        if select.orderBy.count == 2 {
            let second = select.orderBy[1]
            guard case .column(let secondSlot, let secondField, _) = second.expression, secondSlot == table.slot,
                table.fields[secondField] == .entryID, second.descending == first.descending
            else { return }
        }
        guard readFirstSoupInOrder(of: first.expression, select) else { return }
        levels[0].descending = first.descending
        orderIsGiven = true
    }

    /// Makes the first soup's rows come in the order of `expression`, when it is a field of
    /// that soup with an ordered index and the soup is found by a scan (which becomes a walk
    /// of the index) or by a range of that same index; false otherwise.
    private mutating func readFirstSoupInOrder(of expression: BoundExpression, _ select: BoundSelect) -> Bool {
        let table = select.tables[0]
        guard case .column(let slot, let fieldIndex, _) = expression, slot == table.slot else { return false }
        let field = table.fields[fieldIndex]
        let planner = SQLAccessPlanner(table: table, laterSlots: Set(select.tables.map(\.slot)))
        guard planner.hasOrderedIndex(field) else { return false }
        switch levels[0].access {
        case .scan:
            levels[0].access = .indexRange(field: field, bounds: [])
            return true
        case .indexRange(let rangeField, _) where rangeField == field:
            return true
        default:
            return false
        }
    }

    /// The operands of a chain of ANDs.
    static func conjuncts(_ condition: BoundExpression?) -> [BoundExpression] {
        guard let condition else { return [] }
        if case .binary(.and, let left, let right) = condition {
            return conjuncts(left) + conjuncts(right)
        }
        return [condition]
    }
}
