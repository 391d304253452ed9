// The shell's statement splitter in process: a ';' ends a statement only outside quotes,
// braces and comments; statements may span lines; what is left at the end of input.

import Testing
@testable import StockpotTools

@Suite struct StatementSplitterTests {
    /// Feeds `lines` and returns every statement completed, and the splitter.
    private func split(_ lines: [String]) -> ([String], StatementSplitter) {
        var splitter = StatementSplitter()
        var statements: [String] = []
        for line in lines { statements += splitter.feed(line: Array(line.utf8)) }
        return (statements, splitter)
    }

    @Test(arguments: [
        ("SELECT 'a;b';", "SELECT 'a;b'"),
        ("SELECT 'it''s; fine';", "SELECT 'it''s; fine'"),
        ("SELECT \"x;y\" FROM {s};", "SELECT \"x;y\" FROM {s}"),
        ("SELECT `x;y`, [p;q] FROM {s};", "SELECT `x;y`, [p;q] FROM {s}"),
        ("SELECT {s:a;b} FROM {s};", "SELECT {s:a;b} FROM {s}"),
        ("SELECT 1 /* ; */ + 1;", "SELECT 1 /* ; */ + 1"),
        ("  SELECT 1  ;  ", "SELECT 1"),
    ])
    func semicolonsInsideLiteralsBracesAndCommentsDoNotEndAStatement(_ line: String, _ statement: String) {
        let (statements, splitter) = split([line])
        #expect(statements == [statement])
        #expect(splitter.isIdle)
    }

    @Test func statementsSpanLinesAndShareLines() {
        var (statements, splitter) = split(["SELECT 1,", "  2 -- a comment; not the end", "FROM {s}; SELECT 3;;"])
        #expect(statements == ["SELECT 1,\n  2 -- a comment; not the end\nFROM {s}", "SELECT 3"])
        #expect(splitter.isIdle)
        #expect(splitter.finish() == .nothing)

        (statements, splitter) = split(["SELECT 'a", "b;", "c';"])
        #expect(statements == ["SELECT 'a\nb;\nc'"])

        (statements, splitter) = split(["SELECT 1 /* open", "; still */ ;"])
        #expect(statements == ["SELECT 1 /* open\n; still */"])
    }

    @Test func isIdleOnlyBetweenStatements() {
        var splitter = StatementSplitter()
        #expect(splitter.isIdle)
        _ = splitter.feed(line: Array("-- just a comment".utf8))
        #expect(splitter.isIdle)
        _ = splitter.feed(line: Array("SELECT".utf8))
        #expect(!splitter.isIdle)
        _ = splitter.feed(line: Array("1;".utf8))
        #expect(splitter.isIdle)
        _ = splitter.feed(line: Array("/* open".utf8))
        #expect(!splitter.isIdle)
    }

    @Test func theEndOfInputRunsAnUnterminatedStatementButNotAnOpenQuote() {
        var (_, splitter) = split(["SELECT 1", "-- done"])
        #expect(splitter.finish() == .statement("SELECT 1\n-- done"))
        #expect(splitter.finish() == .nothing)
        (_, splitter) = split(["SELECT 'open;"])
        #expect(splitter.finish() == .incomplete("SELECT 'open;"))
        (_, splitter) = split(["SELECT {s:a"])
        #expect(splitter.finish() == .incomplete("SELECT {s:a"))
    }
}
