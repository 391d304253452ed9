// Read-only opens beside a writer (docs/durability.md, "Read-only opens"): a child process
// writes the crash workload without pause, rolling segments, taking snapshots and compacting,
// while this process opens the store read-only again and again; each open must succeed and
// hold exactly the workload's state after the operation its progress key names, and keep
// reading it while the writer compacts the files away.

import Foundation
import StorageCrashWorkload
import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite(.serialized) struct ReadOnlyBesideWriterTests {
    private var writerURL: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("StorageCrashWriter")
    }

    @Test(arguments: [false, true])
    func everyReadOnlyOpenSeesAWholeStateWhileAnotherProcessWrites(encrypted: Bool) throws {
        let opens = TestEnvironment.integer("STOCKPOT_READONLY_OPENS", default: 60)
        let seed: UInt64 = 777
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stockpot-readonly-\(getpid())-\(encrypted)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The store exists before the child starts writing, so that the first open finds it.
        try StorageEngine.open(directory: directory, options: crashOptions(encrypted: encrypted)).close()
        let process = Process()
        process.executableURL = writerURL
        process.arguments = [directory, String(seed)] + (encrypted ? ["encrypted"] : [])
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        var options = crashOptions(encrypted: encrypted)
        options.readOnly = true
        options.warmMappings = false
        // The model advances with the progress each open finds; an engine kept open keeps a
        // copy of the model it was checked against.
        var model: [[UInt8]: [UInt8]] = [:]
        var lastProgress = 0
        var held: [(engine: StorageEngine, progress: Int, model: [[UInt8]: [UInt8]])] = []
        for round in 0..<opens {
            Thread.sleep(forTimeInterval: 0.02)
            let engine = try StorageEngine.open(directory: directory, options: options)
            let progress = crashProgress(try engine.value(for: crashProgressKey))
            #expect(progress >= lastProgress, "open \(round): progress went back from \(lastProgress) to \(progress)")
            if progress > lastProgress {
                for index in (lastProgress + 1)...progress { apply(crashBatch(seed: seed, index: index), to: &model) }
                lastProgress = progress
            }
            let problem = difference(try contents(of: engine), model)
            #expect(problem == nil, "encrypted \(encrypted), open \(round) at operation \(progress): \(problem ?? "")")
            held.append((engine, progress, model))
            // An engine opened earlier still reads its own state after the writer went on.
            if held.count > 4 {
                let old = held.removeFirst()
                let again = difference(try contents(of: old.engine), old.model)
                #expect(again == nil, "an open from earlier, at operation \(old.progress): \(again ?? "")")
                try old.engine.close()
            }
        }
        for entry in held { try entry.engine.close() }
        #expect(lastProgress > 150, "the writer got through at least two compactions (\(lastProgress) operations)")
    }
}
