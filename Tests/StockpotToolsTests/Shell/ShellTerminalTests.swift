// `stockpot shell` on a pseudo-terminal (util-linux `script`), as a person uses it: prompts and
// continuation prompts, Ctrl-C dropping the line being typed and stopping a running statement
// while the shell goes on, Ctrl-D leaving, history kept in ~/.stockpot_history and recalled
// with the up arrow in the next session.

import Foundation
import Testing

@Suite(.serialized) struct ShellTerminalTests {
    /// A store with soups a, b and c of 400 entries each (a three-way join of them is 64
    /// million rows: far longer than a test waits).
    static func store(in scratch: ScratchDirectory) throws -> String {
        let store = scratch.file("store")
        let lines = (0..<400).map { "{\"k\":\($0)}" }.joined(separator: "\n")
        let input = scratch.write("k.jsonl", lines)
        for soup in ["a", "b", "c"] {
            let run = try ToolRun.stockpot(["import", store, "--soup", soup, "--index", "k:integer", input])
            #expect(run.status == 0, "\(run.errors)")
        }
        return store
    }

    @Test func ctrlCDropsTheLineAndStopsTheStatementAndCtrlDLeaves() throws {
        let scratch = try ScratchDirectory()
        let store = try Self.store(in: scratch)
        let terminal = try TerminalSession(["shell", store], home: scratch.path)
        // Each line is typed once the prompt is shown, as a person would: the shell reads
        // the terminal only then.
        #expect(terminal.waitFor("stockpot> "))
        // A statement over two lines: the continuation prompt, then its rows.
        terminal.type("SELECT count(*)\n")
        #expect(terminal.waitFor("   ...> "))
        terminal.type("FROM {a};\n")
        #expect(terminal.waitFor("| 400 |"))
        // Ctrl-C while typing drops the line: the statement it began never runs.
        #expect(terminal.waitFor("stockpot> ", count: 2))
        terminal.type("SELECT 'dropped' FROM {a} WHERE")
        #expect(terminal.waitFor("WHERE"))
        terminal.type("\u{03}")
        #expect(terminal.waitFor("stockpot> ", count: 3), "\(terminal.screen)")
        terminal.type("SELECT 'kept';\n")
        #expect(terminal.waitFor("| kept |"))
        #expect(!terminal.screen.contains("| dropped |"))
        // Ctrl-C while a statement runs stops it; the shell goes on.
        #expect(terminal.waitFor("stockpot> ", count: 4))
        terminal.type("SELECT count(*) FROM {a}, {b}, {c} WHERE {a:k} + {b:k} + {c:k} >= 0;\n")
        Thread.sleep(forTimeInterval: 0.5)
        terminal.type("\u{03}")
        #expect(terminal.waitFor("Error: interrupted"), "\(terminal.screen)")
        #expect(terminal.waitFor("stockpot> ", count: 5))
        terminal.type("SELECT 6 * 7;\n")
        #expect(terminal.waitFor("| 42 |"))
        // Ctrl-D on an empty line leaves, with status 0.
        #expect(terminal.waitFor("stockpot> ", count: 6))
        terminal.type("\u{04}")
        #expect(terminal.finish() == 0, "\(terminal.screen)")
    }

    @Test func historyIsKeptAndRecalledWithTheUpArrow() throws {
        let scratch = try ScratchDirectory()
        let store = try Self.store(in: scratch)
        let first = try TerminalSession(["shell", store], home: scratch.path)
        #expect(first.waitFor("stockpot> "))
        first.type("SELECT 'from the first session';\n")
        #expect(first.waitFor("| from the first session |"))
        first.type(".quit\n")
        #expect(first.finish() == 0, "\(first.screen)")
        let history = try String(contentsOfFile: scratch.file(".stockpot_history"), encoding: .utf8)
        #expect(history.contains("from"), "\(history)")
        let mode = try FileManager.default.attributesOfItem(atPath: scratch.file(".stockpot_history"))[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // The next session: the up arrow twice brings the line back (once is `.quit`, the last
        // line typed); Enter runs it again.
        let second = try TerminalSession(["shell", store], home: scratch.path)
        #expect(second.waitFor("stockpot> "))
        second.type("\u{1B}[A\u{1B}[A")
        #expect(second.waitFor("from the first session';"))
        second.type("\n")
        #expect(second.waitFor("| from the first session |"), "\(second.screen)")
        second.type(".quit\n")
        #expect(second.finish() == 0, "\(second.screen)")
    }
}
