// The soups a parsed statement reads: FROM and joins, subqueries at any depth and in any
// clause, each name once; none for a statement without FROM; a syntax error for bad text.

import Testing
@testable import StockpotQuery

@Suite struct SQLSelectSoupsTests {
    @Test(arguments: [
        ("SELECT {a:name} FROM {a}", ["a"]),
        ("SELECT 1", []),
        ("SELECT x.{a:n}, y.{b:n} FROM {a} AS x JOIN {b} AS y ON x.{a:n} = y.{b:n} LEFT JOIN {c} ON 1", ["a", "b", "c"]),
        ("SELECT {a:n} FROM {a}, {a} AS again", ["a"]),
        ("SELECT {a:n} FROM {a} WHERE {a:n} IN (SELECT {b:n} FROM {b} WHERE {b:n} NOT IN (SELECT {c:n} FROM {c}))", ["a", "b", "c"]),
        ("SELECT CASE WHEN 1 IN (SELECT {d:n} FROM {d}) THEN 1 END FROM {a}", ["a", "d"]),
        ("SELECT {a:n} FROM {a} ORDER BY abs({a:n} IN (SELECT {e:n} FROM {e}))", ["a", "e"]),
        ("SELECT count(*) FROM {a} GROUP BY {a:n} HAVING count(*) IN (SELECT {f:n} FROM {f})", ["a", "f"]),
    ])
    func soupNamesAreEverySoupOfEveryFromClause(statement: String, soups: [String]) throws {
        #expect(try SmartSQLQuery.soupNames(statement).sorted() == soups)
    }

    @Test func aStatementThatDoesNotParseFailsWithItsSyntaxError() {
        #expect(throws: QueryError.self) { try SmartSQLQuery.soupNames("SELECT FROM {a} WHERE") }
    }
}
