// `x IN (list)` with SQLite's meaning: the left operand's affinity applied to both sides,
// unknown when x is NULL or nothing matched and the list holds a NULL, false for `IN ()`.

/// The right side of `x IN (...)`, prepared once (a hash set) and probed per row.
package struct SQLInList: Sendable {
    /// The affinity applied to the left operand and the elements.
    package let affinity: SQLAffinity
    private var members: Set<SQLValue>
    private var containsNull: Bool
    private var isEmpty: Bool

    /// Prepares the elements for `x IN (elements)` where the comparison affinity is
    /// `affinity` (``SQLAffinity/inList(left:)`` or ``SQLAffinity/inSubquery(left:column:)``).
    package init(_ elements: some Sequence<SQLValue>, affinity: SQLAffinity) {
        self.affinity = affinity
        var members = Set<SQLValue>()
        var containsNull = false
        var isEmpty = true
        for element in elements {
            isEmpty = false
            if element.isNull {
                containsNull = true
            } else {
                members.insert(element.applying(affinity))
            }
        }
        self.members = members
        self.containsNull = containsNull
        self.isEmpty = isEmpty
    }

    /// `x IN (...)` (NOT IN is `!` of this).
    ///
    /// - Complexity: O(1) expected, plus hashing x.
    package func contains(_ x: SQLValue) -> SQLTruth {
        if isEmpty { return .false }
        if x.isNull { return .unknown }
        if members.contains(x.applying(affinity)) { return .true }
        return containsNull ? .unknown : .false
    }

    /// `x IN (elements)` without preparing (for a list evaluated once per row).
    package static func contains(
        _ x: SQLValue, in elements: some Sequence<SQLValue>, affinity: SQLAffinity
    ) -> SQLTruth {
        var result = SQLTruth.false
        let left = x.applying(affinity)
        for element in elements {
            if x.isNull || element.isNull {
                result = .unknown
                continue
            }
            if SQLValue.compare(left, element.applying(affinity)) == 0 { return .true }
        }
        return result
    }
}
