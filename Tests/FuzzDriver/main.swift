// stockpot-fuzz: runs one fuzz target (Tests/FuzzTargets) under libFuzzer when built with
// `-sanitize=fuzzer -DSTOCKPOT_LIBFUZZER` (`make fuzz`); otherwise replays the files given.
//
//   stockpot-fuzz TARGET [libFuzzer options and corpus folders]
//   stockpot-fuzz --write-seeds DIR
//   stockpot-fuzz --list

import Foundation
import StockpotFuzzTargets
#if STOCKPOT_LIBFUZZER
    import CLibFuzzer
#endif

/// The target libFuzzer's callback runs; set once before the driver starts.
nonisolated(unsafe) var selectedTarget = FuzzTarget.json

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(64)
}

var arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    fail(
        "usage: stockpot-fuzz TARGET [libFuzzer options] [CORPUS...] | --write-seeds DIR | --list\ntargets: "
            + FuzzTarget.allCases.map(\.name).joined(separator: " "))
}
switch arguments[1] {
case "--list":
    print(FuzzTarget.allCases.map(\.name).joined(separator: "\n"))
    exit(0)
case "--write-seeds":
    guard arguments.count == 3 else { fail("usage: stockpot-fuzz --write-seeds DIR") }
    do {
        try SeedCorpus.write(to: arguments[2])
    } catch {
        fail("Error: \(error)")
    }
    exit(0)
default:
    guard let target = FuzzTarget(rawValue: arguments[1]) else {
        fail("Error: unknown target \(arguments[1]); targets: " + FuzzTarget.allCases.map(\.name).joined(separator: " "))
    }
    selectedTarget = target
}
arguments.remove(at: 1)

#if STOCKPOT_LIBFUZZER
    var argumentCount = CInt(arguments.count)
    var argumentVector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = {
        let vector = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: arguments.count + 1)
        for (index, argument) in arguments.enumerated() { vector[index] = strdup(argument) }
        vector[arguments.count] = nil
        return vector
    }()
    let status = LLVMFuzzerRunDriver(&argumentCount, &argumentVector) { data, size in
        let input = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
        do {
            try selectedTarget.run(input)
        } catch {
            FileHandle.standardError.write(Data("FuzzFailure: \(error)\n".utf8))
            abort()
        }
        return 0
    }
    exit(status)
#else
    // Without libFuzzer: run each file (or each file of each folder) given once.
    var failures = 0
    var inputs = 0
    for path in arguments.dropFirst() where !path.hasPrefix("-") {
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        let files =
            isFolder.boolValue
            ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 } : [path]
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { fail("Error: cannot read \(file)") }
            inputs += 1
            do {
                try selectedTarget.run([UInt8](data))
            } catch {
                failures += 1
                print("\(file): \(error)")
            }
        }
    }
    do {
        try selectedTarget.finish()
    } catch {
        failures += 1
        print("finish: \(error)")
    }
    print("\(selectedTarget.name): \(inputs) inputs, \(failures) failures")
    exit(failures == 0 ? 0 : 1)
#endif
