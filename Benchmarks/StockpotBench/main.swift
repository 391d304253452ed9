// stockpot-bench: runs named workloads (Stockpot vs its baseline, one line each), the
// SQLite baseline self-check, the report over separate processes and its tables, or
// (forwarded to StockpotTools) the `demo` subcommand. See docs/benchmarks.md.

import Foundation
import StockpotTools

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

// `stockpot-bench demo ...`: the same as `stockpot demo ...` (StockpotTools/Demo), kept so
// that older scripts go on working; `make demo` runs `stockpot demo`.
if CommandLine.arguments.dropFirst().first == "demo" {
    exit(StockpotCommand.main(Array(CommandLine.arguments.dropFirst())).rawValue)
}

// `stockpot-bench report ...` and `stockpot-bench tables ...` (Report/).
if CommandLine.arguments.dropFirst().first == "report" {
    if CommandLine.arguments.dropFirst(2).contains(where: { $0 == "-h" || $0 == "--help" }) {
        print(ReportCommand.usage)
        exit(0)
    }
    do {
        let command = try ReportCommand.parse(Array(CommandLine.arguments.dropFirst(2)))
        exit(command.run())
    } catch {
        printError("Error: \(error.message)\n\n\(ReportCommand.usage)")
        exit(64)
    }
}
if CommandLine.arguments.dropFirst().first == "tables" {
    if CommandLine.arguments.dropFirst(2).contains(where: { $0 == "-h" || $0 == "--help" }) {
        print(
            ResultsTables.usage + "\n\nPrints the results page's generated part from RESULTS files, or writes it into PAGE"
                + " between its <!-- results:begin --> and <!-- results:end --> lines.")
        exit(0)
    }
    let command: ResultsTables
    do {
        command = try ResultsTables.parse(Array(CommandLine.arguments.dropFirst(2)))
    } catch {
        printError("Error: \(error.message)\n\n\(ResultsTables.usage)")
        exit(64)
    }
    do {
        print(try command.run())
        exit(0)
    } catch {
        printError("Error: \(error)")
        exit(1)
    }
}

let options: BenchOptions
do {
    options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    printError("Error: \(error.message)\n\n\(BenchOptions.usage)")
    exit(64)
}

if options.showHelp {
    print(BenchOptions.usage)
    exit(0)
}
if options.listWorkloads {
    for workload in WorkloadCatalog.all() {
        print(workload.name.padding(toLength: max(22, workload.name.count + 2), withPad: " ", startingAt: 0) + workload.summary)
    }
    exit(0)
}

SideOrder.baselineFirst = options.baselineFirst
if options.sqliteSetup == .sqlcipher {
    do {
        SQLiteLibrary.current = try SQLiteLibrary.sqlcipher()
    } catch {
        printError("Error: \(error)")
        exit(1)
    }
    StoreLoad.encryption = EncryptedIngestWorkload.key
}
if let seconds = options.timedSeconds { BlockInterleaving.timedSecondsBudget = seconds }
let context = BenchContext(options: options)
if options.emitCorpus {
    let corpus = context.corpus
    var lines = [UInt8]()
    for range in corpus.ranges {
        lines.append(contentsOf: corpus.bytes[range])
        lines.append(UInt8(ascii: "\n"))
    }
    FileHandle.standardOutput.write(Data(lines))
    exit(0)
}
if options.prepareFixture {
    do {
        _ = try context.queryFixture()
        context.finish()
        exit(0)
    } catch {
        printError("Error: \(error)")
        exit(1)
    }
}
if options.selfCheck {
    do {
        print(try SQLiteSelfCheck().run(in: context))
        exit(0)
    } catch {
        printError("Error: \(error)")
        exit(1)
    }
}

var workloads = [any Workload]()
for name in options.workloadNames {
    guard let workload = WorkloadCatalog.workload(named: name) else {
        printError("Error: unknown workload '\(name)' (try --list)\n\n\(BenchOptions.usage)")
        exit(64)
    }
    workloads.append(workload)
}
if workloads.isEmpty { workloads = WorkloadCatalog.all() }

let printer = ResultPrinter(format: options.format)
if let header = printer.header() { print(header) }
var failed = false
for workload in workloads {
    do {
        var result = try workload.run(in: context)
        // The targets were set against plain SQLite; against SQLCipher the rows are shown
        // for comparison only.
        if options.sqliteSetup == .sqlcipher { result.target = nil }
        print(printer.line(for: result))
    } catch {
        printError("Error: \(workload.name) failed: \(error)")
        failed = true
    }
}
context.finish()
exit(failed ? 1 : 0)
