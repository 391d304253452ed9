// Crash tests: a child process writes with default durability and is killed with SIGKILL at
// random moments; after each kill the store must open, hold every acknowledged operation, and
// equal the workload's state after some prefix of its operations.
// STOCKPOT_CRASH_KILLS sets the number of kills (200 by default, half of them for the
// encrypted store; `make crash` runs many more).

import Foundation
import StorageCrashWorkload
import Testing
@testable import StockpotStorage
import StockpotTestSupport

@Suite(.serialized) struct CrashTests {
    private var writerURL: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("StorageCrashWriter")
    }

    @Test(arguments: [false, true])
    func killedWriterLosesNothingAcknowledged(encrypted: Bool) throws {
        let allKills = TestEnvironment.integer("STOCKPOT_CRASH_KILLS", default: 200)
        let kills = encrypted ? max(1, allKills / 2) : allKills
        let seed = TestEnvironment.seed("STOCKPOT_CRASH_SEED", default: 20_261_130)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("stockpot-crash-\(getpid())-\(seed)-\(encrypted)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(FileManager.default.isExecutableFile(atPath: writerURL.path), "missing \(writerURL.path)")

        var generator = SeededRandom(seed: seed)
        var model: [[UInt8]: [UInt8]] = [:]
        var modelProgress = 0
        var acknowledgedTotal = 0
        for round in 0..<kills {
            let process = Process()
            process.executableURL = writerURL
            process.arguments = [directory, String(seed)] + (encrypted ? ["encrypted"] : [])
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            Thread.sleep(forTimeInterval: Double(5 + generator.below(75)) / 1000)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(!printed.contains("error"), "seed \(seed), round \(round): the writer failed: \(printed)")
            let acknowledged = printed.split(separator: "\n").compactMap { Int($0) }.max() ?? 0

            let engine = try StorageEngine.open(directory: directory, options: crashOptions(encrypted: encrypted))
            try engine.recover { _ in }
            let progress = crashProgress(try engine.value(for: crashProgressKey))
            #expect(progress >= acknowledged, "seed \(seed), round \(round): acknowledged \(acknowledged) but the store holds \(progress)")
            #expect(progress >= modelProgress, "seed \(seed), round \(round): progress went back from \(modelProgress) to \(progress)")
            while modelProgress < progress {
                modelProgress += 1
                apply(crashBatch(seed: seed, index: modelProgress), to: &model)
            }
            let problem = difference(try contents(of: engine), model)
            try engine.close()
            acknowledgedTotal = max(acknowledgedTotal, acknowledged)
            if let problem {
                Issue.record("seed \(seed), round \(round): not the state after operation \(progress): \(problem)")
                return
            }
        }
        #expect(acknowledgedTotal > 0, "seed \(seed): the writer never acknowledged a write")
    }
}
