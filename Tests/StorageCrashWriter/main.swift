// storage-crash-writer DIRECTORY SEED [encrypted]: opens the store (encrypted with the crash
// workload's key when asked), continues the crash workload from the progress it finds, and
// prints each operation's index once its write has returned (and so is durable). The crash
// tests kill it with SIGKILL at random moments.

import StockpotStorage
import StorageCrashWorkload

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a line to standard output at once (unbuffered), so that the parent sees every
/// acknowledgement made before the kill.
func writeLine(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 || (arguments.count == 4 && arguments[3] == "encrypted"), let seed = UInt64(arguments[2]) else {
    writeLine("usage: storage-crash-writer DIRECTORY SEED [encrypted]")
    exit(64)
}
let encrypted = arguments.count == 4
do {
    let engine = try StorageEngine.open(directory: arguments[1], options: crashOptions(encrypted: encrypted))
    try engine.recover { _ in }
    var index = crashProgress(try engine.value(for: crashProgressKey)) + 1
    while true {
        try engine.write(crashBatch(seed: seed, index: index))
        writeLine(String(index))
        if index % 40 == 0 {
            let view = engine.view()
            try engine.saveSnapshot(Array("snapshot \(index)".utf8), coveringSequence: view.sequence)
        }
        if index % 75 == 0 { try engine.compact() }
        index += 1
    }
} catch {
    writeLine("error: \(error)")
    exit(1)
}
