// Refused statements: the code (smart_sql_syntax or read_only_statement), the character
// position counted in Unicode scalars, the token quoted, what was expected, and the message.

import Testing
@testable import StockpotQuery

@Suite struct SQLSyntaxErrorTests {
    static func error(_ statement: String) -> SQLSyntaxError? {
        do throws(SQLSyntaxError) {
            _ = try SQLParser.parse(statement)
            return nil
        } catch {
            return error
        }
    }

    @Test func messageNamesPositionTokenAndWhatWasExpected() throws {
        let error = try #require(Self.error("SELECT {s:name} AS x FORM {s}"))
        #expect(error.code == .syntax)
        #expect(error.position == 21)
        #expect(error.near == "FORM")
        #expect(error.expected == "FROM, WHERE, GROUP BY, ORDER BY, LIMIT or the end of the statement")
        #expect(
            error.message
                == "Syntax error at character 21 near \"FORM\": expected FROM, WHERE, GROUP BY, ORDER BY, LIMIT or the end of the statement.")
        #expect(error.description.hasPrefix("smart_sql_syntax: Syntax error at character 21"))
    }

    @Test func positionCountsUnicodeScalarsNotBytes() throws {
        // 'é' is 2 bytes and '😀' 4, each one character.
        let error = try #require(Self.error("SELECT 'é😀' + FROM {s}"))
        #expect(error.position == 14)
        #expect(error.near == "FROM")
        let lexical = try #require(Self.error("SELECT {s:ä}, 'ü"))
        #expect(lexical.position == 14)
        #expect(lexical.near == "'ü")
    }

    /// (statement, position, near (nil: the end), a part of the message)
    static let syntaxErrors: [(String, Int, String?, String)] = [
        ("", 0, nil, "the statement is empty; expected SELECT"),
        ("  -- only a comment\n ", 21, nil, "the statement is empty"),
        ("SELEC 1", 0, "SELEC", "expected SELECT"),
        ("VALUE 1", 0, "VALUE", "expected SELECT"),
        ("SELECT", 6, nil, "expected an expression"),
        ("SELECT 1 +", 10, nil, "expected an expression"),
        ("SELECT (1", 9, nil, "expected an operator or )"),
        ("SELECT 1; select 2", 10, "select", "one statement at a time"),
        ("SELECT 1; 2", 10, "2", "expected the end of the statement"),
        ("SELECT 1 FROM {a} WHERE x GARBAGE", 26, "GARBAGE", "expected GROUP BY, ORDER BY, LIMIT or the end of the statement"),
        ("SELECT 1 FROM {a} junk junk", 23, "junk", "expected a join, WHERE, GROUP BY, ORDER BY, LIMIT or the end"),
        ("SELECT 1 LIMIT 1 OFFSET 1, 2", 25, ",", "expected the end of the statement"),
        ("SELECT *", 7, "*", "SELECT * is not supported in Smart SQL; name each value with {soup:path}"),
        ("SELECT t.* FROM {s} t", 7, "t", "SELECT x.* is not supported"),
        ("SELECT {s}.* FROM {s}", 7, "{s}", "SELECT x.* is not supported"),
        ("SELECT 1 + t.* FROM {s} t", 13, "*", "x.* is not supported"),
        ("SELECT 1 FROM", 13, nil, "expected a soup, written {soup}"),
        ("SELECT 1 FROM s", 14, "s", "write the soup in braces, as {s}"),
        ("SELECT 1 FROM {s:a}", 14, "{s:a}", "FROM takes a soup written {soup}"),
        ("SELECT 1 FROM (SELECT 1)", 14, "(", "a subquery or parenthesized join in FROM is not supported"),
        ("SELECT 1 FROM {a} NATURAL JOIN {b}", 18, "NATURAL", "a NATURAL join is not supported"),
        ("SELECT 1 FROM {a} RIGHT JOIN {b}", 18, "RIGHT", "a RIGHT or FULL join is not supported"),
        ("SELECT 1 FROM {a} full JOIN {b}", 18, "full", "a RIGHT or FULL join is not supported"),
        ("SELECT 1 FROM {a} JOIN {b} USING (x)", 27, "USING", "JOIN ... USING is not supported"),
        ("SELECT 1 FROM {a} OUTER JOIN {b}", 18, "OUTER", "expected LEFT before OUTER JOIN"),
        ("SELECT 1 FROM {a} LEFT {b}", 23, "{b}", "expected JOIN"),
        ("SELECT 1 UNION SELECT 2", 9, "UNION", "a compound SELECT (UNION, INTERSECT, EXCEPT) is not supported"),
        ("SELECT 1 ORDER BY 1 EXCEPT SELECT 2", 20, "EXCEPT", "compound SELECT"),
        ("SELECT 'abc", 7, "'abc", "the string literal has no closing quote"),
        ("SELECT \"abc", 7, "\"abc", "the quoted name has no closing quote"),
        ("SELECT [abc", 7, "[abc", "the quoted name has no closing quote"),
        ("SELECT `abc", 7, "`abc", "the quoted name has no closing quote"),
        ("SELECT {s:a", 7, "{s:a", "{ has no closing }"),
        ("SELECT {:a}", 7, "{:a}", "the soup name is empty"),
        ("SELECT {s:}", 7, "{s:}", "the path is empty"),
        ("SELECT {}", 7, "{}", "the soup name is empty"),
        ("SELECT 1abc", 7, "1abc", "unrecognized token"),
        ("SELECT 1e", 7, "1e", "unrecognized token"),
        ("SELECT 0x1G", 7, "0x1G", "unrecognized token"),
        ("SELECT 0x10000000000000000", 7, "0x10000000000000000", "the hex literal is too big for 64 bits"),
        ("SELECT ?1", 7, "?1", "only ? placeholders"),
        ("SELECT ?, :name", 10, ":name", "only ? placeholders"),
        ("SELECT @x", 7, "@x", "only ? placeholders"),
        ("SELECT $x", 7, "$x", "only ? placeholders"),
        ("SELECT 1 # 2", 9, "#", "unrecognized token"),
        ("SELECT 1 ! 2", 9, "!", "unrecognized token"),
        ("SELECT 1 & 2", 9, "&", "bitwise operators are not supported"),
        ("SELECT 1 | 2", 9, "|", "bitwise operators are not supported"),
        ("SELECT ~1", 7, "~", "bitwise operators are not supported"),
        ("SELECT 1 >> 2", 9, ">>", "bitwise operators are not supported"),
        ("SELECT 'a' COLLATE NOCASE", 11, "COLLATE", "COLLATE is not supported"),
        ("SELECT CAST(1 AS TEXT)", 7, "CAST", "CAST is not supported"),
        ("SELECT EXISTS (SELECT 1)", 7, "EXISTS", "EXISTS is not supported"),
        ("SELECT (SELECT 1)", 8, "SELECT", "a scalar subquery is not supported"),
        ("SELECT 1 + SELECT", 11, "SELECT", "a scalar subquery is not supported"),
        ("SELECT 'a' GLOB 'b'", 11, "GLOB", "GLOB is not supported in Smart SQL; use LIKE"),
        ("SELECT 'a' NOT REGEXP 'b'", 15, "REGEXP", "REGEXP is not supported"),
        ("SELECT {s:a} -> 'x'", 13, "->", "the -> and ->> operators are not supported"),
        ("SELECT (1, 2)", 9, ",", "a row value is not supported"),
        ("SELECT count(*) OVER ()", 16, "OVER", "a window function is not supported"),
        ("SELECT count(*) FILTER (WHERE 1)", 16, "FILTER", "FILTER is not supported"),
        ("SELECT 1 ORDER BY 1 NULLS FIRST", 20, "NULLS", "NULLS FIRST or LAST is not supported"),
        ("SELECT {s} FROM {s}", 7, "{s}", "a soup can stand only in FROM, before MATCH or before .{soup:path}"),
        ("SELECT 1 + {s} MATCH 'x'", 15, "MATCH", "MATCH searches {soup}, an alias or {soup:path}"),
        ("SELECT 1 MATCH 'x'", 9, "MATCH", "MATCH searches"),
        ("SELECT -{s:a} MATCH 'x'", 14, "MATCH", "MATCH searches"),
        ("SELECT t.x FROM {s} t", 9, "x", "expected {soup:path} after the dot"),
        ("SELECT 1 NOT 2", 13, "2", "expected IN, LIKE, BETWEEN, MATCH or NULL after NOT"),
        ("SELECT 1 BETWEEN 0 OR 1 AND 2", 19, "OR", "expected AND after the BETWEEN low bound"),
        ("SELECT 1 IS DISTINCT 2", 21, "2", "expected FROM after IS DISTINCT"),
        ("SELECT 1 IN 2", 12, "2", "expected ( after IN"),
        ("SELECT 1 IN (1, 2", 17, nil, "expected a comma or )"),
        ("SELECT 1 IN (SELECT 1 FROM {s}", 30, nil, "expected a join, WHERE, GROUP BY, ORDER BY, LIMIT or )"),
        ("SELECT CASE END", 12, "END", "expected WHEN"),
        ("SELECT CASE 1 END", 14, "END", "expected WHEN"),
        ("SELECT CASE WHEN 1 2 END", 19, "2", "expected THEN"),
        ("SELECT CASE WHEN 1 THEN 2", 25, nil, "expected WHEN, ELSE or END"),
        ("SELECT count(", 13, nil, "expected an expression"),
        ("SELECT count(* 1)", 15, "1", "expected ) after *"),
        ("SELECT 1 GROUP 1", 15, "1", "expected BY after GROUP"),
        ("SELECT 1 ORDER 1", 15, "1", "expected BY after ORDER"),
        ("SELECT 1 AS", 11, nil, "expected a name after AS"),
        ("SELECT 1 AS FROM", 12, "FROM", "expected a name after AS"),
        ("SELECT 1 FROM {s} AS", 20, nil, "expected a name after AS"),
        ("SELECT 1 LIMIT", 14, nil, "expected an expression"),
        ("SELECT 'é' + FROM", 13, "FROM", "expected an expression"),
        ("SELECT x.{s:a} MATCH", 20, nil, "expected an expression"),
        ("SELECT 1 WINDOW w AS ()", 9, "WINDOW", "a window function is not supported"),
    ]

    @Test(arguments: syntaxErrors)
    func syntaxErrorIsReported(_ statement: String, _ position: Int, _ near: String?, _ words: String) throws {
        let error = try #require(Self.error(statement), "`\(statement)` parsed")
        #expect(error.code == .syntax)
        #expect(error.code.rawValue == "smart_sql_syntax")
        #expect(error.position == position, "\(error.message)")
        #expect(error.near == near)
        #expect(error.message.contains(words), "\(error.message)")
        #expect(error.message.hasPrefix("Syntax error at character \(position) "))
        #expect(error.message.hasSuffix("."))
    }

    @Test func longTokenIsShortenedInTheMessage() throws {
        let long = String(repeating: "x", count: 100)
        let error = try #require(Self.error("SELECT 1 FROM {s} WHERE 1 \(long)"))
        #expect(error.near == String(repeating: "x", count: 40) + "...")
    }

    /// (statement, position of the offending statement's first word, that word)
    static let readOnly: [(String, Int, String)] = [
        ("INSERT INTO t VALUES (1)", 0, "INSERT"), ("update t set a = 1", 0, "update"),
        ("DELETE FROM {s}", 0, "DELETE"), ("Replace INTO t VALUES (1)", 0, "Replace"),
        ("CREATE TABLE t (a)", 0, "CREATE"), ("DROP TABLE t", 0, "DROP"), ("ALTER TABLE t ADD b", 0, "ALTER"),
        ("PRAGMA user_version = 3", 0, "PRAGMA"), ("ATTACH 'x' AS y", 0, "ATTACH"), ("DETACH y", 0, "DETACH"),
        ("VACUUM", 0, "VACUUM"), ("REINDEX", 0, "REINDEX"), ("ANALYZE", 0, "ANALYZE"), ("BEGIN", 0, "BEGIN"),
        ("COMMIT", 0, "COMMIT"), ("END", 0, "END"), ("ROLLBACK", 0, "ROLLBACK"), ("SAVEPOINT a", 0, "SAVEPOINT"),
        ("RELEASE a", 0, "RELEASE"), ("EXPLAIN SELECT 1", 0, "EXPLAIN"), ("WITH x AS (SELECT 1) SELECT 2", 0, "WITH"),
        ("UPSERT x", 0, "UPSERT"), ("VALUES (1)", 0, "VALUES"),
        ("  /* c */ -- d\n delete from {s}", 16, "delete"), (";; DELETE FROM x", 3, "DELETE"),
        ("SELECT 1; DELETE FROM x", 10, "DELETE"), ("SELECT 'é';;drop table t", 12, "drop"),
        ("SELECT {s:a} FROM {s} WHERE {s:a} = ?; UPDATE t SET a = 1", 39, "UPDATE"),
        // The second statement need not parse: it is refused for what it is.
        ("SELECT 1; DELETE FROM 'unterminated", 10, "DELETE"),
    ]

    @Test(arguments: readOnly)
    func nonSelectStatementIsReadOnly(_ statement: String, _ position: Int, _ word: String) throws {
        let error = try #require(Self.error(statement), "`\(statement)` parsed")
        #expect(error.code == .readOnlyStatement)
        #expect(error.code.rawValue == "read_only_statement")
        #expect(error.position == position)
        #expect(error.near == word)
        #expect(error.message.contains("only SELECT statements"))
        #expect(error.message.contains(word.uppercased()))
    }

    @Test func firstProblemInTextOrderWins() throws {
        // A syntax error before a bad token is reported, not the token; and a bad token
        // before a syntax error is.
        #expect(Self.error("SELECT 1 FROM FROM 'open")?.near == "FROM")
        #expect(Self.error("SELECT 'open FROM FROM")?.near == "'open FROM FROM")
        #expect(Self.error("SELECT 1 +; DELETE FROM x")?.code == .syntax)
    }
}
