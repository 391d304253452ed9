// The shell's dot-commands: .soups, .schema, .indexes, .register, .import (the import
// command's loader), .dump (the dump command's writer), .mode, .headers, .timer, .stats, .help,
// .quit/.exit; and those of ShellSession+Scripts.swift: .read, .output, .once, .bail.

import Stockpot

extension ShellSession {
    /// What `.help` prints.
    static let helpText = """
        .bail on|off                  Stop at the first error, with exit status 1 (off by default)
        .dump [FILE]                  Write the store as a dump (docs/format/dump.md) to FILE (encrypted for an encrypted store) or the output
        .exit                         Leave the shell (the same as .quit)
        .headers on|off               Begin table and csv rows with the column names (off by default)
        .help                         Show this list
        .import FILE SOUP             Load JSON Lines from FILE into SOUP, which must exist
        .indexes SOUP                 List SOUP's index specs as PATH:TYPE[:unique]
        .mode [table|json|jsonl|csv]  Set how rows are printed; without a mode, show it
        .once FILE                    Send the next statement's rows to FILE
        .output [FILE]                Send rows and command output to FILE; without FILE, back to standard output
        .quit                         Leave the shell
        .read FILE                    Run the statements and commands in FILE
        .register SOUP PATH:TYPE ...  Register SOUP with index specs (TYPE string, integer, floating, full_text, json1; :unique after it)
        .schema [SOUP]                Show each soup (or SOUP) as the .register command that makes it
        .soups                        List the soups
        .stats                        Show the store's statistics (as 'stockpot stats')
        .timer on|off                 Print each statement's run time on standard error

        Statements end with ';'. On a terminal: arrow keys edit and recall lines (history in
        ~/.stockpot_history), Ctrl-C drops the line being typed or stops the running
        statement, Ctrl-D on an empty line leaves.

        """

    /// Runs one dot-command line (starting with `.`).
    func runDotCommand(_ line: String) {
        let words: [String]
        do throws(UsageError) {
            words = try Self.words(of: line)
        } catch {
            fail(error.message)
            return
        }
        guard let name = words.first else { return }
        let arguments = Array(words.dropFirst())
        do throws(ToolFailure) {
            switch name {
            case ".quit", ".exit":
                try expect(arguments, count: 0...0, usage: name)
                quitRequested = true
            case ".help":
                emit(Self.helpText)
            case ".soups":
                try expect(arguments, count: 0...0, usage: ".soups")
                emit(store.allSoupNames().map { $0 + "\n" }.joined())
            case ".indexes":
                try expect(arguments, count: 1...1, usage: ".indexes SOUP")
                try listIndexes(of: arguments[0])
            case ".register":
                try expect(arguments, count: 2...Int.max, usage: ".register SOUP PATH:TYPE ...")
                try register(arguments[0], specs: Array(arguments.dropFirst()))
            case ".import":
                try expect(arguments, count: 2...2, usage: ".import FILE SOUP")
                try importLines(from: arguments[0], into: arguments[1])
            case ".dump":
                try expect(arguments, count: 0...1, usage: ".dump [FILE]")
                try dump(to: arguments.first)
            case ".mode":
                try expect(arguments, count: 0...1, usage: ".mode [\(RowFormat.names)]")
                guard let modeName = arguments.first else {
                    emit("current output mode: \(mode.rawValue)\n")
                    return
                }
                guard let newMode = RowFormat(name: modeName) else {
                    throw ToolFailure("unknown mode '\(modeName)'; the modes are \(RowFormat.names)")
                }
                mode = newMode
            case ".timer":
                timer = try onOff(arguments, usage: ".timer on|off")
            case ".headers":
                headers = try onOff(arguments, usage: ".headers on|off")
            case ".bail":
                bail = try onOff(arguments, usage: ".bail on|off")
            case ".schema":
                try expect(arguments, count: 0...1, usage: ".schema [SOUP]")
                try showSchema(of: arguments.first)
            case ".read":
                try expect(arguments, count: 1...1, usage: ".read FILE")
                try read(arguments[0])
            case ".output":
                try expect(arguments, count: 0...1, usage: ".output [FILE]")
                try redirect(to: arguments.first, once: false)
            case ".once":
                try expect(arguments, count: 1...1, usage: ".once FILE")
                try redirect(to: arguments[0], once: true)
            case ".stats":
                try expect(arguments, count: 0...0, usage: ".stats")
                emit(try StoreReport(store: store).text)
            default:
                throw ToolFailure("unknown command '\(name)'; .help lists the commands")
            }
        } catch {
            fail(error.message)
        }
    }

    func expect(_ arguments: [String], count: ClosedRange<Int>, usage: String) throws(ToolFailure) {
        guard count.contains(arguments.count) else { throw ToolFailure("usage: \(usage)") }
    }

    /// The switch of `.timer`, `.headers` and `.bail`.
    private func onOff(_ arguments: [String], usage: String) throws(ToolFailure) -> Bool {
        guard arguments.count == 1, arguments[0] == "on" || arguments[0] == "off" else { throw ToolFailure("usage: \(usage)") }
        return arguments[0] == "on"
    }

    /// Each soup (or the one named) as the `.register` line that makes it, in name order.
    private func showSchema(of soup: String?) throws(ToolFailure) {
        let names = soup.map { [$0] } ?? store.allSoupNames().sorted()
        var text = ""
        for name in names {
            let specs: [IndexSpec]
            do {
                specs = try store.indexSpecs(of: name)
            } catch {
                throw ToolFailure("\(error.code): \(error.message)")
            }
            text += ".register " + Self.quoted(name) + " " + specs.map { Self.quoted(Self.describe($0)) }.joined(separator: " ") + "\n"
        }
        emit(text)
    }

    /// A dot-command word as `words(of:)` reads it back: quoted when it holds white space
    /// or a quote.
    static func quoted(_ word: String) -> String {
        guard word.contains(where: { $0 == " " || $0 == "\t" || $0 == "'" || $0 == "\"" }) || word.isEmpty else { return word }
        return word.contains("'") ? "\"" + word + "\"" : "'" + word + "'"
    }

    private func listIndexes(of soup: String) throws(ToolFailure) {
        let specs: [IndexSpec]
        do {
            specs = try store.indexSpecs(of: soup)
        } catch {
            throw ToolFailure("\(error.code): \(error.message)")
        }
        emit(specs.map { Self.describe($0) + "\n" }.joined())
    }

    /// `PATH:TYPE` or `PATH:TYPE:unique`, as `.register` and `import --index` take them.
    static func describe(_ spec: IndexSpec) -> String {
        "\(spec.path):\(spec.type.rawValue)" + (spec.unique ? ":unique" : "")
    }

    private func register(_ soup: String, specs texts: [String]) throws(ToolFailure) {
        var specs: [IndexSpec] = []
        for text in texts {
            do throws(UsageError) {
                specs.append(try ImportCommand.parseSpec(text))
            } catch {
                throw ToolFailure("'\(text)' is not an index spec: give PATH:TYPE[:unique] with TYPE string, integer, floating, full_text or json1")
            }
        }
        if store.soupExists(soup) {
            let existing = (try? store.indexSpecs(of: soup)) ?? []
            guard existing == specs else {
                throw ToolFailure("soup \"\(soup)\" exists already with other index specs: \(existing.map(Self.describe).joined(separator: " "))")
            }
            return
        }
        do {
            try store.registerSoup(soup, indexSpecs: specs)
        } catch {
            throw ToolFailure("\(error.code): \(error.message)")
        }
    }

    /// Loads a JSON Lines file into an existing soup through the import command's loader; the
    /// first bad line stops it (the batches before it stay written).
    private func importLines(from path: String, into soup: String) throws(ToolFailure) {
        guard store.soupExists(soup) else {
            throw ToolFailure("there is no soup \"\(soup)\"; register it first with .register \(soup) PATH:TYPE ...")
        }
        let input = try InputSource.open(path)
        let progress = ProgressBar(label: "import", totalBytes: input.size)
        defer { progress.finish() }
        let summary = try DocumentImporter(store: store, soup: soup).run(reading: input.fileDescriptor, progress: progress)
        progress.finish()
        StandardStream.error.write("Imported \(summary.imported) entries (\(ByteCount.describe(summary.bytes))) into soup \"\(soup)\".\n")
    }

    /// Writes the dump of the store's current state to a file or standard output.
    private func dump(to path: String?) throws(ToolFailure) {
        let target = try path.map { path throws(ToolFailure) in try ByteOutput.file(path) } ?? output
        do throws(ToolFailure) {
            if path != nil, let dumpKey { target.seal(with: try DumpCommand.sealer(dumpKey)) }
            try DumpCommand.write(store.view(), to: target)
            try target.finish()
        } catch {
            target.abandon()
            if path == nil && output.failedErrorNumber != nil { outputFailed(error) }
            throw error
        }
        if let path { StandardStream.error.write("Dumped the store to \(path).\n") }
    }

    /// The words of a dot-command line: split at white space, with '...' and "..." kept whole.
    ///
    /// - Throws: for a quote left open.
    static func words(of line: String) throws(UsageError) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if quote != nil { throw UsageError("unterminated quote in '\(line)'") }
        if inWord { words.append(word) }
        return words
    }
}
