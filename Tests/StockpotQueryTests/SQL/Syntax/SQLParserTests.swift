// Statements of every construct of the Smart SQL dialect and the trees the parser builds for
// them: clauses, joins, aliases, every operator form, CASE, functions, placeholders, paths.

import Testing
@testable import StockpotQuery

@Suite struct SQLParserTests {
    static let statements: [(String, String)] = [
        ("SELECT 1", "SELECT 1"),
        ("select distinct {s:a} from {s}", "SELECT DISTINCT {s:a} FROM {s}"),
        ("SELECT ALL {s:a} FROM {s};", "SELECT {s:a} FROM {s}"),
        (
            "SELECT {s:a} AS x, {s:b} y, {s:c} 'z', {s:d} AS \"w w\", {s:e} desc FROM {s} AS t",
            "SELECT {s:a} AS x, {s:b} AS y, {s:c} AS z, {s:d} AS w w, {s:e} AS desc FROM {s} t"
        ),
        ("SELECT 1 AS left, 2 AS [x y], 3 [z]", "SELECT 1 AS left, 2 AS x y, 3 AS z"),
        ("SELECT {a:x}, {b:y} FROM {a}, {b} other", "SELECT {a:x}, {b:y} FROM {a} JOIN {b} other"),
        ("SELECT 1 FROM {a}, {b} ON {a:x} = {b:x}", "SELECT 1 FROM {a} JOIN {b} ON (= {a:x} {b:x})"),
        (
            "SELECT 1 FROM {a} JOIN {b} ON {a:x} = {b:y} INNER JOIN {c} CROSS JOIN {d} x",
            "SELECT 1 FROM {a} JOIN {b} ON (= {a:x} {b:y}) JOIN {c} JOIN {d} x"
        ),
        (
            "SELECT 1 FROM {a} LEFT JOIN {b} ON 1 LEFT OUTER JOIN {c} AS c ON c.{c:k} = {a}.{a:k}",
            "SELECT 1 FROM {a} LEFT JOIN {b} ON 1 LEFT JOIN {c} c ON (= c.{c:k} a.{a:k})"
        ),
        (
            "SELECT mgr.{employees:name} FROM {employees} AS e JOIN {employees} AS mgr ON e.{employees:manager} = mgr.{employees:id}",
            "SELECT mgr.{employees:name} FROM {employees} e JOIN {employees} mgr ON (= e.{employees:manager} mgr.{employees:id})"
        ),
        (
            "SELECT {s:a} FROM {s} WHERE {s:a} > 1 AND {s:b} = 'x'",
            "SELECT {s:a} FROM {s} WHERE (AND (> {s:a} 1) (= {s:b} 'x'))"
        ),
        (
            "SELECT {s:a}, count(*) AS n FROM {s} GROUP BY {s:a}, 2 HAVING n > 1 ORDER BY n DESC, {s:a} ASC, 1 LIMIT 10 OFFSET 5",
            "SELECT {s:a}, count(*) AS n FROM {s} GROUP BY {s:a}, 2 HAVING (> #n 1) ORDER BY #n DESC, {s:a}, 1 LIMIT 10 OFFSET 5"
        ),
        ("SELECT count(*) FROM {s} HAVING count(*) > 0", "SELECT count(*) FROM {s} HAVING (> count(*) 0)"),
        ("SELECT 1 LIMIT 5, 10", "SELECT 1 LIMIT 10 OFFSET 5"),
        ("SELECT 1 LIMIT ?", "SELECT 1 LIMIT ?0"),
        (
            "SELECT {s:a} FROM {s} WHERE {s:a} IN (SELECT {t:a} FROM {t} WHERE {t:b} = ? ORDER BY 1 LIMIT 3) AND {s:c} = ?",
            "SELECT {s:a} FROM {s} WHERE (AND (IN {s:a} (SELECT {t:a} FROM {t} WHERE (= {t:b} ?0) ORDER BY 1 LIMIT 3)) (= {s:c} ?1))"
        ),
        ("SELECT 1;;  ;", "SELECT 1"),
        (";SELECT 1", "SELECT 1"),
    ]

    @Test(arguments: statements)
    func statementParsesToItsTree(_ statement: String, _ expected: String) throws {
        #expect(SQLTreeRendering.render(try SQLParser.parse(statement)) == expected)
    }

    static let expressions: [(String, String)] = [
        ("NULL", "NULL"), ("true", "1"), ("FALSE", "0"), ("'it''s'", "'it''s'"), ("''", "''"),
        ("42", "42"), ("0x1F", "31"), ("0XfF", "255"), ("0x7FFFFFFFFFFFFFFF", "9223372036854775807"),
        ("0x8000000000000000", "-9223372036854775808"), ("0xFFFFFFFFFFFFFFFF", "-1"),
        ("0x00000000000000000001", "1"), ("1.5", "1.5r"), (".5", "0.5r"), ("1.", "1.0r"), ("1e3", "1000.0r"),
        ("1.5E-2", "0.015r"), ("2e+2", "200.0r"), ("9223372036854775807", "9223372036854775807"),
        ("9223372036854775808", "9.223372036854776e+18r"), ("-9223372036854775808", "-9223372036854775808"),
        ("-(9223372036854775808)", "-9223372036854775808"), ("- 009223372036854775808", "-9223372036854775808"),
        ("-9223372036854775809", "(- 9.223372036854776e+18r)"), ("-+9223372036854775808", "(- (+ 9.223372036854776e+18r))"),
        ("99999999999999999999999", "1e+23r"), ("1e999", "infr"),
        ("?", "?0"), ("{s:a}", "{s:a}"), ("{s:a.b.c}", "{s:a.b.c}"), ("{s:a:b}", "{s:a:b}"), ("{s:_soup}", "{s:_soup}"),
        ("{my soup:päth x}", "{my soup:päth x}"), ("t.{s:a}", "t.{s:a}"), ("\"t t\" . {s:a}", "t t.{s:a}"),
        ("{s}.{s:a}", "s.{s:a}"), ("x", "#x"), ("\"quoted \"\"x\"\"\"", "#quoted \"x\""), ("[b r]", "#b r"),
        ("`b``q`", "#b`q"), ("naïve_$x", "#naïve_$x"), ("_x9", "#_x9"),
        ("count(*)", "count(*)"), ("COUNT(DISTINCT {s:a})", "COUNT(DISTINCT {s:a})"), ("max(ALL 1, 2)", "max(1, 2)"),
        ("random()", "random()"), ("replace('a', 'b', 'c')", "replace('a', 'b', 'c')"), ("like('a', 'b')", "like('a', 'b')"),
        ("\"abs\"(-1)", "abs((- 1))"), ("substr({s:a}, 1 + 1, 2)", "substr({s:a}, (+ 1 1), 2)"),
        ("CASE WHEN 1 THEN 'a' END", "(CASE (WHEN 1 'a'))"),
        ("CASE {s:a} WHEN 1 THEN 'a' WHEN 2 THEN 'b' ELSE 'c' END", "(CASE {s:a} (WHEN 1 'a') (WHEN 2 'b') (ELSE 'c'))"),
        ("{s:a} IS NULL", "(ISNULL {s:a})"), ("{s:a} IS NOT NULL", "(NOTNULL {s:a})"), ("{s:a} ISNULL", "(ISNULL {s:a})"),
        ("{s:a} NOTNULL", "(NOTNULL {s:a})"), ("{s:a} NOT NULL", "(NOTNULL {s:a})"),
        ("1 IS 2", "(IS 1 2)"), ("1 IS NOT 2", "(IS NOT 1 2)"), ("1 IS DISTINCT FROM 2", "(IS NOT 1 2)"),
        ("1 IS NOT DISTINCT FROM 2", "(IS 1 2)"), ("1 IS NOT DISTINCT FROM NULL", "(ISNULL 1)"),
        ("x IS TRUE", "(IS (NOT (NOT #x)) 1)"), ("x IS FALSE", "(IS (NOT #x) 1)"),
        ("x IS NOT TRUE", "(IS NOT (NOT (NOT #x)) 1)"), ("x IS NOT FALSE", "(IS NOT (NOT #x) 1)"),
        ("x IS (true)", "(IS (NOT (NOT #x)) 1)"), ("x IS 1", "(IS #x 1)"), ("x IS +TRUE", "(IS #x (+ 1))"),
        ("1 BETWEEN 0 AND 2", "(BETWEEN 1 0 2)"), ("1 NOT BETWEEN 0 AND 2", "(NOT BETWEEN 1 0 2)"),
        ("1 IN ()", "(IN 1 [])"), ("1 IN (1, 2, ?)", "(IN 1 [1 2 ?0])"), ("1 NOT IN (2)", "(NOT IN 1 [2])"),
        ("1 NOT IN (SELECT 2)", "(NOT IN 1 (SELECT 2))"),
        ("'a' LIKE 'b'", "(LIKE 'a' 'b')"), ("'a' NOT LIKE 'b%' ESCAPE '\\'", "(NOT LIKE 'a' 'b%' ESCAPE '\\')"),
        ("{s:a} MATCH 'x'", "(MATCH {s:a} 'x')"), ("t.{s:a} MATCH ?", "(MATCH t.{s:a} ?0)"),
        ("{s} MATCH 'x'", "(MATCH soup:s 'x')"), ("t MATCH 'x'", "(MATCH soup:t 'x')"),
        ("{s} NOT MATCH 'x'", "(NOT (MATCH soup:s 'x'))"),
        ("{s:a} MATCH 'x' AND {s:b} = 1", "(AND (MATCH {s:a} 'x') (= {s:b} 1))"),
        ("1 == 2", "(= 1 2)"), ("1 <> 2", "(!= 1 2)"), ("1 != 2", "(!= 1 2)"),
        ("'{a:b}'", "'{a:b}'"), ("'{a:b' || '}'", "(|| '{a:b' '}')"), ("'-- no' /* c {s} */ -- x", "'-- no'"),
    ]

    @Test(arguments: expressions)
    func expressionParsesToItsTree(_ text: String, _ expected: String) throws {
        #expect(try SQLTreeRendering.expression(text) == expected)
    }

    @Test func placeholdersAreNumberedInTextOrder() throws {
        let select = try SQLParser.parse(
            "SELECT ?, {s:a} FROM {s} WHERE {s:a} IN (?, ?) AND {s:b} IN (SELECT ? FROM {t}) ORDER BY ? LIMIT ? OFFSET ?")
        #expect(
            SQLTreeRendering.render(select)
                == "SELECT ?0, {s:a} FROM {s} WHERE (AND (IN {s:a} [?1 ?2]) (IN {s:b} (SELECT ?3 FROM {t}))) ORDER BY ?4 LIMIT ?5 OFFSET ?6")
    }

    @Test func positionsAreByteOffsets() throws {
        // "é" is two bytes: positions after it are byte offsets, not character offsets.
        let select = try SQLParser.parse("SELECT 'é', t.{s:a} + -1 FROM {s} AS t LEFT JOIN {u} ON {u} MATCH 'x'")
        let sum = select.columns[1].expression
        #expect(sum.position == 13)
        guard case .binary(.add, let left, let right) = sum.kind else { Issue.record("not a sum"); return }
        #expect(left == SQLExpression(.path(SQLPathReference(qualifier: "t", soup: "s", path: "a", position: 13)), at: 13))
        #expect(right == SQLExpression(.unary(.negate, SQLExpression(.literal(.integer(1)), at: 24)), at: 23))
        let from = try #require(select.from)
        #expect(from.first == SQLSoupReference(soup: "s", alias: "t", position: 31))
        #expect(
            from.joins == [
                SQLJoin(
                    kind: .left, soup: SQLSoupReference(soup: "u", position: 50),
                    on: SQLExpression(.match(.soup(qualifier: "u", position: 57), SQLExpression(.literal(.text("x")), at: 67)), at: 57))
            ])
    }

    @Test func resultColumnTextIsTheExpressionAsWritten() throws {
        let select = try SQLParser.parse("SELECT  {s:a}  +  1   AS x , ( 2 )y, count( * ) /* c */ , 'é' FROM {s}")
        #expect(select.columns.map(\.text) == ["{s:a}  +  1", "( 2 )", "count( * )", "'é'"])
        #expect(select.columns.map(\.alias) == ["x", "y", nil, nil])
    }

    @Test func fullTreeOfOneStatement() throws {
        let select = try SQLParser.parse("SELECT DISTINCT {s:a} AS k FROM {s} WHERE {s:b} = ? ORDER BY k DESC LIMIT 2")
        let expected = SQLSelect(
            distinct: true,
            columns: [
                SQLResultColumn(
                    expression: SQLExpression(.path(SQLPathReference(qualifier: nil, soup: "s", path: "a", position: 16)), at: 16),
                    alias: "k", text: "{s:a}")
            ],
            from: SQLFrom(first: SQLSoupReference(soup: "s", position: 32)),
            whereCondition: SQLExpression(
                .binary(
                    .equal,
                    SQLExpression(.path(SQLPathReference(qualifier: nil, soup: "s", path: "b", position: 42)), at: 42),
                    SQLExpression(.parameter(index: 0), at: 50)), at: 42),
            orderBy: [SQLOrderingTerm(expression: SQLExpression(.name("k"), at: 61), descending: true)],
            limit: SQLExpression(.literal(.integer(2)), at: 74))
        #expect(select == expected)
    }
}
