// EXPLAIN QUERY PLAN (docs/smart-sql.md, "Query plans"): a bound statement's plan as SQLite's
// four columns (id, parent, notused, detail), one line per soup in join order saying how its
// rows are found, then how grouping, DISTINCT and ORDER BY are done, with each IN subquery
// nested under a line of its own. Nothing is run.

/// One line of a query plan.
package struct SQLPlanLine: Sendable, Hashable {
    /// This line's number, from 1 in the order the lines are written.
    package var id: Int
    /// The line this one belongs to (a subquery's), 0 at the top.
    package var parent: Int
    package var detail: String
}

/// Describes prepared statements' plans.
enum SQLQueryPlan {
    /// The plan of `statement`, as the one place that chooses who answers it would run it
    /// now: an index walk, an index join, or the executor's join plan.
    static func lines(_ statement: SQLPreparedStatement) -> [SQLPlanLine] {
        var writer = Writer()
        if let scan = statement.indexScan {
            let table = scan.table
            let order = scan.descending ? " DESC" : ""
            writer.add("SCAN \(table.name) USING INDEX ON \(path(scan.walkedField, of: table))\(order) (VALUES FROM INDEXES)", parent: 0)
            return writer.lines
        }
        writer.describe(statement.select, parent: 0, valuesFromIndexes: statement.indexJoin != nil)
        return writer.lines
    }

    /// The path a field reads, as a statement writes it.
    static func path(_ field: SQLField, of table: BoundTable) -> String {
        switch field {
        case .spec(let position): table.schema.paths[position]
        case .json(let path): path
        case .entryID: "_soupEntryId"
        case .created: "_soupCreatedDate"
        case .lastModified: "_soupLastModifiedDate"
        case .document: "_soup"
        }
    }

    private struct Writer {
        var lines: [SQLPlanLine] = []

        @discardableResult
        mutating func add(_ detail: String, parent: Int) -> Int {
            lines.append(SQLPlanLine(id: lines.count + 1, parent: parent, detail: detail))
            return lines.count
        }

        mutating func describe(_ select: BoundSelect, parent: Int, valuesFromIndexes: Bool = false) {
            let plan = select.plan
            if select.tables.isEmpty { add("SCAN CONSTANT ROW", parent: parent) }
            for (position, level) in plan.levels.enumerated() {
                let table = select.tables[position]
                var detail = access(level, table)
                if level.descending { detail += " DESC" }
                if level.isLeft { detail += " (LEFT JOIN)" }
                if valuesFromIndexes { detail += " (VALUES FROM INDEXES)" }
                add(detail, parent: parent)
            }
            if select.isAggregate, !select.groupBy.isEmpty {
                add(plan.groupsAreContiguous ? "GROUP BY IN INDEX ORDER" : "USE HASH TABLE FOR GROUP BY", parent: parent)
            }
            if select.distinct { add("USE HASH TABLE FOR DISTINCT", parent: parent) }
            if !select.orderBy.isEmpty {
                if plan.orderIsGiven {
                    add("ORDER BY IN INDEX ORDER", parent: parent)
                } else if SQLExecutor.rowsToKeep(select) != nil {
                    add("USE TOP-N HEAP FOR ORDER BY", parent: parent)
                } else {
                    add("USE SORT FOR ORDER BY", parent: parent)
                }
            }
            var subqueries: [BoundSubquery] = []
            for expression in [select.whereCondition, select.having].compactMap({ $0 }) + select.columns + select.joins.compactMap(\.on) {
                Self.collectSubqueries(expression, into: &subqueries)
            }
            for subquery in subqueries {
                let header = add(subquery.isCorrelated ? "CORRELATED LIST SUBQUERY" : "LIST SUBQUERY", parent: parent)
                describe(subquery.select, parent: header)
            }
        }

        /// How one soup's rows are found.
        private func access(_ level: SQLJoinPlan.Level, _ table: BoundTable) -> String {
            switch level.access {
            case .scan:
                return "SCAN \(table.name)"
            case .indexRange(let field, let bounds):
                let path = SQLQueryPlan.path(field, of: table)
                guard !bounds.isEmpty else { return "SCAN \(table.name) USING INDEX ON \(path)" }
                let conditions = bounds.map { "\(path)\($0.op.rawValue)?" }.joined(separator: " AND ")
                return "SEARCH \(table.name) USING INDEX ON \(path) (\(conditions))"
            case .hashLookup(let field, _, _):
                let path = SQLQueryPlan.path(table.fields[field], of: table)
                return "SEARCH \(table.name) USING HASH LOOKUP ON \(path) (\(path)=?)"
            case .match(let path, _):
                return "SEARCH \(table.name) USING FULL-TEXT INDEX (\(path.map { "\($0) " } ?? "")MATCH ?)"
            }
        }

        /// The IN subqueries of `expression`, outermost first.
        static func collectSubqueries(_ expression: BoundExpression, into found: inout [BoundSubquery]) {
            func visit(_ children: [BoundExpression]) {
                for child in children { collectSubqueries(child, into: &found) }
            }
            switch expression {
            case .constant, .parameter, .column, .aggregate:
                return
            case .negate(let inner), .plus(let inner), .not(let inner), .isNull(let inner, _):
                visit([inner])
            case .binary(_, let left, let right):
                visit([left, right])
            case .between(let value, let low, let high, _):
                visit([value, low, high])
            case .inList(let value, let list, _):
                visit([value] + list)
            case .inConstants(let value, _, _):
                visit([value])
            case .inSelect(let value, let subquery, _):
                visit([value])
                found.append(subquery)
            case .like(let value, let pattern, let escape, _):
                visit([value, pattern] + (escape.map { [$0] } ?? []))
            case .match(_, _, let text):
                visit([text])
            case .caseWhen(let base, let branches, let otherwise):
                visit((base.map { [$0] } ?? []) + branches.flatMap { [$0.0, $0.1] } + (otherwise.map { [$0] } ?? []))
            case .function(_, let arguments):
                visit(arguments)
            }
        }
    }
}
